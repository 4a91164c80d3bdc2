import { Capacitor } from '@capacitor/core';
import { providePlatform } from '../../web/src/lib/platform/index.ts';
import { nativePlatformFor } from './platform.ts';

// Runs before the web app is imported (native/src/main.ts): inside the shell, the app's capabilities are Capacitor's.
const native = nativePlatformFor({ isNative: Capacitor.isNativePlatform(), platform: Capacitor.getPlatform() });
if (native) providePlatform(native);
