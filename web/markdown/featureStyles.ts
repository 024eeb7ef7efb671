/** The style sheets of the on-demand renderers (browser only: the bundler turns them into CSS). */
import 'katex/dist/katex.min.css';
