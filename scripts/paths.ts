/** Folders of the installed package, independent of the working directory. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_SRC = path.join(ROOT, 'web');
export const WEB_DIST = path.join(ROOT, 'dist');
