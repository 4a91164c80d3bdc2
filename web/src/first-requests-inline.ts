/**
 * app.html's inline script (build/prerender-landing.ts bundles it into the page's head): the first screen's API
 * reads, started while the app's scripts download.
 */
import { startFirstRequests } from './lib/first-requests.ts';

startFirstRequests();
