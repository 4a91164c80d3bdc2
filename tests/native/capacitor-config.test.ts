import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import viteConfig from '../../web/vite.config.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const nativeDir = resolve(root, 'native');
const webDist = resolve(root, 'web', viteConfig.build?.outDir ?? 'dist');
const capBin = resolve(root, 'node_modules/@capacitor/cli/bin/capacitor');
const run = promisify(execFile);

/** The Capacitor CLI as `cd native && cap …` runs it (it reads the config and package.json from its cwd). */
function cap(...args: string[]) {
  // process.execPath is the Node that runs the tests (Node 24 under npm test); the CLI refuses Node < 22.
  return run(process.execPath, [capBin, ...args], {
    cwd: nativeDir,
    env: { ...process.env, CI: '1', NO_COLOR: '1' },
    timeout: 30_000,
  });
}

const read = (path: string) => readFileSync(resolve(nativeDir, path), 'utf8');

describe('capacitor.config.json', () => {
  const config = JSON.parse(read('capacitor.config.json'));

  it('names the app and points webDir at the web build', () => {
    expect(config.appId).toBe('app.stridestake');
    expect(config.appName).toBe('StrideStake');
    expect(resolve(nativeDir, config.webDir)).toBe(webDist);
    expect(config.plugins.PushNotifications.presentationOptions).toEqual(['badge', 'sound', 'alert']);
  });

  it('is what the Capacitor CLI reads from native/', async () => {
    const { stdout } = await cap('config', '--json');
    const resolved = JSON.parse(stdout);
    expect(resolved.app.appId).toBe('app.stridestake');
    expect(resolved.app.webDirAbs).toBe(webDist);
    expect(resolved.android.platformDirAbs).toBe(resolve(nativeDir, 'android'));
    expect(resolved.ios.platformDirAbs).toBe(resolve(nativeDir, 'ios'));
  });

  it('finds the three plugins for both platforms (native/package.json lists them)', async () => {
    for (const platform of ['android', 'ios']) {
      const { stdout } = await cap('ls', platform);
      for (const plugin of ['@capacitor/geolocation', '@capacitor/preferences', '@capacitor/push-notifications']) {
        expect(stdout).toContain(plugin);
      }
    }
  });
});

describe('generated native projects', () => {
  it('Android declares location, foreground-service, notification permissions and the auth deep link', () => {
    const manifest = read('android/app/src/main/AndroidManifest.xml');
    for (const permission of [
      'ACCESS_FINE_LOCATION',
      'ACCESS_COARSE_LOCATION',
      'FOREGROUND_SERVICE',
      'FOREGROUND_SERVICE_LOCATION',
      'POST_NOTIFICATIONS',
    ]) {
      expect(manifest).toContain(`android:name="android.permission.${permission}"`);
    }
    expect(manifest).toMatch(
      /<data android:scheme="stridestake" android:host="auth" android:pathPrefix="\/callback" \/>/,
    );
    // Strava's return comes back into the app (its consent runs in the system browser).
    expect(manifest).toMatch(/<data android:scheme="stridestake" android:host="connected-apps" \/>/);
    expect(read('android/app/build.gradle')).toContain('applicationId "app.stridestake"');
  });

  it('iOS has the location usage strings, background modes and the stridestake URL scheme', () => {
    const plist = read('ios/App/App/Info.plist');
    expect(plist).toMatch(/<key>NSLocationWhenInUseUsageDescription<\/key>\s*<string>[^<]+<\/string>/);
    expect(plist).toMatch(/<key>NSLocationAlwaysAndWhenInUseUsageDescription<\/key>\s*<string>[^<]+<\/string>/);
    expect(plist).toMatch(/<key>CFBundleURLSchemes<\/key>\s*<array>\s*<string>stridestake<\/string>/);
    expect(plist).toMatch(
      /<key>UIBackgroundModes<\/key>\s*<array>\s*<string>location<\/string>\s*<string>remote-notification<\/string>/,
    );
    // APNs hands its token to the push plugin through these two notifications.
    const appDelegate = read('ios/App/App/AppDelegate.swift');
    expect(appDelegate).toContain('.capacitorDidRegisterForRemoteNotifications');
    expect(appDelegate).toContain('.capacitorDidFailToRegisterForRemoteNotifications');
    expect(read('ios/App/App.xcodeproj/project.pbxproj')).toContain('PRODUCT_BUNDLE_IDENTIFIER = app.stridestake;');
  });
});
