import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * `npm run native:sync` (cap sync) writes each native project's plugin list: Android's Gradle settings and app
 * dependencies (committed) and capacitor.plugins.json (generated, ignored by git); iOS's Swift package (committed)
 * and the packageClassList of its capacitor.config.json (generated). CI runs the sync before the tests, so the
 * generated lists are checked there too; on a machine that has not synced since a checkout only the committed ones are.
 */
const nativeDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../native');
const read = (path: string) => readFileSync(resolve(nativeDir, path), 'utf8');
const generated = (path: string) => {
  const full = resolve(nativeDir, path);
  if (existsSync(full)) return readFileSync(full, 'utf8');
  if (process.env.CI) throw new Error(`${path} is missing: .ci/run runs npm run native:sync before the tests`);
  return null;
};

/**
 * The shell's plugins with what each native project calls them; `path` is where the package lives (node_modules/…, or
 * the shell's own plugin in native/plugins, which npm links into node_modules and cap sync follows to its folder).
 */
const PLUGINS = [
  {
    pkg: '@capawesome-team/capacitor-android-foreground-service',
    gradle: 'capawesome-team-capacitor-android-foreground-service',
    androidClass: 'io.capawesome.capacitorjs.plugins.foregroundservice.ForegroundServicePlugin',
    // Android only: the foreground service has no iOS side.
    ios: null,
  },
  {
    pkg: '@capgo/background-geolocation',
    gradle: 'capgo-background-geolocation',
    androidClass: 'com.capgo.capacitor_background_geolocation.BackgroundGeolocation',
    ios: { swiftPackage: 'CapgoBackgroundGeolocation', pluginClass: 'BackgroundGeolocation' },
  },
  {
    pkg: '@capgo/capacitor-health',
    gradle: 'capgo-capacitor-health',
    androidClass: 'app.capgo.plugin.health.HealthPlugin',
    ios: { swiftPackage: 'CapgoCapacitorHealth', pluginClass: 'HealthPlugin' },
  },
  {
    // deep-links.ts: the auth callback and the Strava return arrive through it.
    pkg: '@capacitor/app',
    gradle: 'capacitor-app',
    androidClass: 'com.capacitorjs.plugins.app.AppPlugin',
    ios: { swiftPackage: 'CapacitorApp', pluginClass: 'AppPlugin' },
  },
  {
    // The shell's own plugin (native/plugins/health-routes): health store workouts' routes, health-routes.ts.
    pkg: '@stridestake/capacitor-health-routes',
    path: 'plugins/health-routes',
    gradle: 'stridestake-capacitor-health-routes',
    androidClass: 'app.stridestake.healthroutes.HealthRoutesPlugin',
    ios: { swiftPackage: 'StridestakeCapacitorHealthRoutes', pluginClass: 'HealthRoutesPlugin' },
  },
] as const;

/** Where a plugin's package is, as the native projects' paths end. */
const packagePath = (plugin: (typeof PLUGINS)[number]) =>
  'path' in plugin ? plugin.path : `node_modules/${plugin.pkg}`;

describe('native projects list the shell plugins (npm run native:sync)', () => {
  it('native/package.json, the plugin list cap sync reads, names each', () => {
    const deps = JSON.parse(read('package.json')).dependencies as Record<string, string>;
    for (const plugin of PLUGINS) expect(Object.keys(deps)).toContain(plugin.pkg);
  });

  it("the shell's own plugin is a Capacitor package on both platforms, linked from the repository's dependencies", () => {
    const plugin = JSON.parse(read('plugins/health-routes/package.json'));
    expect(plugin).toMatchObject({
      name: '@stridestake/capacitor-health-routes',
      capacitor: { android: { src: 'android' }, ios: { src: 'ios' } },
    });
    const root = JSON.parse(readFileSync(resolve(nativeDir, '../package.json'), 'utf8'));
    expect(root.dependencies[plugin.name]).toBe('file:native/plugins/health-routes');
    expect(read('plugins/health-routes/Package.swift')).toContain('name: "StridestakeCapacitorHealthRoutes"');
    const kotlin = read(
      'plugins/health-routes/android/src/main/java/app/stridestake/healthroutes/HealthRoutesPlugin.kt',
    );
    expect(kotlin).toContain('@CapacitorPlugin(name = "HealthRoutes")');
    expect(kotlin).toContain('ExerciseRouteRequestContract');
    const swift = read('plugins/health-routes/ios/Sources/HealthRoutesPlugin/HealthRoutesPlugin.swift');
    expect(swift).toContain('public let jsName = "HealthRoutes"');
    expect(swift).toContain('HKWorkoutRouteQuery');
    expect(swift).toContain('HKSeriesType.workoutRoute()');
  });

  it('Android builds each plugin (Gradle settings and app dependencies) and registers its class', () => {
    const settings = read('android/capacitor.settings.gradle');
    const build = read('android/app/capacitor.build.gradle');
    const registered = generated('android/app/src/main/assets/capacitor.plugins.json');
    for (const plugin of PLUGINS) {
      expect(settings).toContain(`include ':${plugin.gradle}'`);
      expect(settings).toContain(`${packagePath(plugin)}/android')`);
      expect(build).toContain(`implementation project(':${plugin.gradle}')`);
      if (registered !== null)
        expect(JSON.parse(registered)).toContainEqual({ pkg: plugin.pkg, classpath: plugin.androidClass });
    }
  });

  it('iOS builds each plugin it has (Swift package) and registers its class', () => {
    const swiftPackage = read('ios/App/CapApp-SPM/Package.swift');
    const config = generated('ios/App/App/capacitor.config.json');
    const classes: string[] = config === null ? [] : JSON.parse(config).packageClassList;
    for (const plugin of PLUGINS) {
      if (plugin.ios === null) {
        expect(swiftPackage).not.toContain(plugin.pkg);
        continue;
      }
      expect(swiftPackage).toContain(
        `.package(name: "${plugin.ios.swiftPackage}", path: "${'path' in plugin ? '../../..' : '../../../..'}/${packagePath(plugin)}")`,
      );
      expect(swiftPackage).toContain(
        `.product(name: "${plugin.ios.swiftPackage}", package: "${plugin.ios.swiftPackage}")`,
      );
      if (config !== null) expect(classes).toContain(plugin.ios.pluginClass);
    }
  });

  it('Android declares the location foreground service and its Stop action receiver; the bridge survives the background', () => {
    const manifest = read('android/app/src/main/AndroidManifest.xml');
    expect(manifest).toMatch(
      /<service\s+android:name="io\.capawesome\.capacitorjs\.plugins\.foregroundservice\.AndroidForegroundService"\s+android:foregroundServiceType="location"\s*\/>/,
    );
    expect(manifest).toContain(
      '<receiver android:name="io.capawesome.capacitorjs.plugins.foregroundservice.NotificationActionBroadcastReceiver" />',
    );
    expect(manifest).toContain('android:name="android.permission.health.READ_EXERCISE"');
    expect(manifest).toContain('android:name="android.permission.health.READ_EXERCISE_ROUTES"');
    expect(read('android/app/src/main/res/drawable/ic_stat_run.xml')).toContain('<vector');
    // @capgo/background-geolocation's docs: without the legacy bridge, updates stop after 5 minutes in the background.
    expect(JSON.parse(read('capacitor.config.json')).android.useLegacyBridge).toBe(true);
    expect(read('ios/App/App/Info.plist')).toMatch(
      /<key>NSHealthShareUsageDescription<\/key>\s*<string>[^<]+<\/string>/,
    );
    // HealthKit (workouts and their routes) needs its entitlement, signed into the app target.
    expect(read('ios/App/App/App.entitlements')).toMatch(/<key>com\.apple\.developer\.healthkit<\/key>\s*<true\/>/);
    expect(
      read('ios/App/App.xcodeproj/project.pbxproj').match(/CODE_SIGN_ENTITLEMENTS = App\/App\.entitlements;/g),
    ).toHaveLength(2);
  });
});
