import Capacitor
import CoreLocation
import Foundation
import HealthKit

/// HealthRoutes on iOS: the route of an Apple Health workout (HKWorkoutRoute samples read with HKWorkoutRouteQuery).
/// Reading routes needs read authorization for HKSeriesType.workoutRoute(); HealthKit never says whether the runner
/// allowed it (a denied read looks like no data), so a route that cannot be read answers "none".
/// The JavaScript side is native/src/health-routes.ts.
@objc(HealthRoutesPlugin)
public class HealthRoutesPlugin: CAPPlugin, CAPBridgedPlugin {
    public let identifier = "HealthRoutesPlugin"
    public let jsName = "HealthRoutes"
    public let pluginMethods: [CAPPluginMethod] = [
        CAPPluginMethod(name: "requestRouteAuthorization", returnType: CAPPluginReturnPromise),
        CAPPluginMethod(name: "getRoute", returnType: CAPPluginReturnPromise)
    ]

    private let store = HKHealthStore()

    /// Asks to read workouts and their routes; resolves { granted } (true once the runner was asked: iOS keeps the
    /// answer to itself).
    @objc func requestRouteAuthorization(_ call: CAPPluginCall) {
        guard HKHealthStore.isHealthDataAvailable() else {
            call.resolve(["granted": false])
            return
        }
        let read: Set<HKObjectType> = [HKObjectType.workoutType(), HKSeriesType.workoutRoute()]
        store.requestAuthorization(toShare: nil, read: read) { success, error in
            if let error = error {
                call.reject(error.localizedDescription)
                return
            }
            call.resolve(["granted": success])
        }
    }

    /// Resolves { status: "route" | "none", fixes } for the workout whose UUID is `workoutId`.
    @objc func getRoute(_ call: CAPPluginCall) {
        guard let id = call.getString("workoutId"), let uuid = UUID(uuidString: id) else {
            call.reject("workoutId must be a workout's UUID")
            return
        }
        guard HKHealthStore.isHealthDataAvailable() else {
            call.resolve(HealthRoutesPlugin.answer("none", []))
            return
        }
        let query = HKSampleQuery(
            sampleType: HKObjectType.workoutType(),
            predicate: HKQuery.predicateForObject(with: uuid),
            limit: 1,
            sortDescriptors: nil
        ) { [weak self] _, samples, error in
            guard let self = self else { return }
            if let error = error {
                call.reject(error.localizedDescription)
                return
            }
            guard let workout = samples?.first as? HKWorkout else {
                call.resolve(HealthRoutesPlugin.answer("none", []))
                return
            }
            self.readRoutes(of: workout, call: call)
        }
        store.execute(query)
    }

    /// The workout's route samples, oldest first (a workout paused and resumed may have more than one).
    private func readRoutes(of workout: HKWorkout, call: CAPPluginCall) {
        let query = HKSampleQuery(
            sampleType: HKSeriesType.workoutRoute(),
            predicate: HKQuery.predicateForObjects(from: workout),
            limit: HKObjectQueryNoLimit,
            sortDescriptors: [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: true)]
        ) { [weak self] _, samples, error in
            guard let self = self else { return }
            if let error = error {
                call.reject(error.localizedDescription)
                return
            }
            let routes = (samples as? [HKWorkoutRoute]) ?? []
            if routes.isEmpty {
                call.resolve(HealthRoutesPlugin.answer("none", []))
                return
            }
            self.readLocations(of: routes[...], collected: [], call: call)
        }
        store.execute(query)
    }

    /// Reads each route's locations (HealthKit hands them over in batches until `done`), one route after another.
    private func readLocations(of routes: ArraySlice<HKWorkoutRoute>, collected: [CLLocation], call: CAPPluginCall) {
        guard let route = routes.first else {
            call.resolve(HealthRoutesPlugin.answer("route", collected))
            return
        }
        var locations = collected
        let query = HKWorkoutRouteQuery(route: route) { [weak self] query, batch, done, error in
            guard let self = self else { return }
            if let error = error {
                self.store.stop(query)
                call.reject(error.localizedDescription)
                return
            }
            locations.append(contentsOf: batch ?? [])
            if done {
                self.readLocations(of: routes.dropFirst(), collected: locations, call: call)
            }
        }
        store.execute(query)
    }

    /// The locations as the JavaScript side reads them: lat, lng, at (ISO 8601), accuracy and altitude in metres
    /// (left out where iOS marks them invalid with a negative accuracy).
    private static func answer(_ status: String, _ locations: [CLLocation]) -> [String: Any] {
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let fixes: [[String: Any]] = locations.map { location in
            var fix: [String: Any] = [
                "lat": location.coordinate.latitude,
                "lng": location.coordinate.longitude,
                "at": iso.string(from: location.timestamp)
            ]
            if location.horizontalAccuracy >= 0 { fix["accuracy"] = location.horizontalAccuracy }
            if location.verticalAccuracy >= 0 { fix["altitude"] = location.altitude }
            return fix
        }
        return ["status": status, "fixes": fixes]
    }
}
