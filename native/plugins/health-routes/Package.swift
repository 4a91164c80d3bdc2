// swift-tools-version: 5.9
import PackageDescription

// The name is what `cap sync` calls this package in the app's CapApp-SPM (from @stridestake/capacitor-health-routes).
let package = Package(
    name: "StridestakeCapacitorHealthRoutes",
    platforms: [.iOS(.v15)],
    products: [
        .library(
            name: "StridestakeCapacitorHealthRoutes",
            targets: ["HealthRoutesPlugin"])
    ],
    dependencies: [
        .package(url: "https://github.com/ionic-team/capacitor-swift-pm.git", from: "8.0.0")
    ],
    targets: [
        .target(
            name: "HealthRoutesPlugin",
            dependencies: [
                .product(name: "Capacitor", package: "capacitor-swift-pm"),
                .product(name: "Cordova", package: "capacitor-swift-pm")
            ],
            path: "ios/Sources/HealthRoutesPlugin",
            linkerSettings: [
                .linkedFramework("HealthKit"),
                .linkedFramework("CoreLocation")
            ])
    ]
)
