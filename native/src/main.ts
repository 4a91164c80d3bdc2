/*
 * The native shell's entry: the web app's own entry (web/src/main.tsx), after the shell's implementations of the
 * capabilities the web app owns (geolocation, push, storage, deep links) are provided to it. `npm run native:sync`
 * builds the web app with this entry (web/vite.config.ts, native mode); the web build never contains it. ES module
 * order makes the platform go in first.
 */
import './provide-platform.ts';
import '../../web/src/main.tsx';
