/** Settings: site-wide options. */
export { getSiteSettings } from './settings';
