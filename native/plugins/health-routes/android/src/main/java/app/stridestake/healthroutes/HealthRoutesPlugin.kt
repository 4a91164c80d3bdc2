package app.stridestake.healthroutes

import android.os.Build
import androidx.activity.result.ActivityResult
import androidx.health.connect.client.HealthConnectClient
import androidx.health.connect.client.PermissionController
import androidx.health.connect.client.contracts.ExerciseRouteRequestContract
import androidx.health.connect.client.permission.HealthPermission
import androidx.health.connect.client.records.ExerciseRoute
import androidx.health.connect.client.records.ExerciseRouteResult
import androidx.health.connect.client.records.ExerciseSessionRecord
import com.getcapacitor.JSArray
import com.getcapacitor.JSObject
import com.getcapacitor.Plugin
import com.getcapacitor.PluginCall
import com.getcapacitor.PluginMethod
import com.getcapacitor.annotation.ActivityCallback
import com.getcapacitor.annotation.CapacitorPlugin
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.cancel
import kotlinx.coroutines.launch

/**
 * HealthRoutes on Android: the route of a Health Connect exercise session (ExerciseSessionRecord.exerciseRouteResult).
 * Health Connect gives another app's route only with the runner's consent: READ_EXERCISE_ROUTES (Android 15+) covers
 * every route; without it each route is ConsentRequired and Health Connect's own dialog (ExerciseRouteRequestContract)
 * asks for that one workout. The JavaScript side is native/src/health-routes.ts.
 */
@CapacitorPlugin(name = "HealthRoutes")
class HealthRoutesPlugin : Plugin() {
    private val scope = CoroutineScope(SupervisorJob() + Dispatchers.Main.immediate)
    private val permissionContract = PermissionController.createRequestPermissionResultContract()
    private val routeContract = ExerciseRouteRequestContract()

    override fun handleOnDestroy() {
        super.handleOnDestroy()
        scope.cancel()
    }

    private fun client(): HealthConnectClient? =
        if (HealthConnectClient.getSdkStatus(context) == HealthConnectClient.SDK_AVAILABLE) {
            HealthConnectClient.getOrCreate(context)
        } else {
            null
        }

    /** Runs [block] on the main thread and always settles the call (an escaping exception would end the app). */
    private fun PluginCall.launchSettled(block: suspend PluginCall.() -> Unit) {
        val call = this
        scope.launch {
            try {
                call.block()
            } catch (e: CancellationException) {
                throw e
            } catch (e: Exception) {
                call.reject(e.message ?: "Health Connect could not read the route", null, e)
            }
        }
    }

    /** Asks for the routes permission; resolves { granted } (whether routes may be read, with or without a dialog each). */
    @PluginMethod
    fun requestRouteAuthorization(call: PluginCall) {
        val client = client() ?: return call.resolve(JSObject().put("granted", false))
        call.launchSettled {
            val granted = client.permissionController.getGrantedPermissions()
            if (routesReadable(granted)) {
                resolve(JSObject().put("granted", true))
                return@launchSettled
            }
            startActivityForResult(this, permissionContract.createIntent(context, PERMISSIONS), "onRoutePermission")
        }
    }

    @ActivityCallback
    private fun onRoutePermission(call: PluginCall?, result: ActivityResult) {
        if (call == null) return
        val granted = permissionContract.parseResult(result.resultCode, result.data)
        call.resolve(JSObject().put("granted", routesReadable(granted)))
    }

    /**
     * Resolves { status, fixes } for one exercise session: "route" with its locations, "none" (no route recorded, or
     * no Health Connect), "denied" (the runner declined this workout's route).
     */
    @PluginMethod
    fun getRoute(call: PluginCall) {
        val workoutId = call.getString("workoutId")
        if (workoutId.isNullOrEmpty()) return call.reject("workoutId is required")
        val client = client() ?: return call.resolve(answer("none", null))
        call.launchSettled {
            val session = client.readRecord(ExerciseSessionRecord::class, workoutId).record
            when (val route = session.exerciseRouteResult) {
                is ExerciseRouteResult.Data -> resolve(answer("route", route.exerciseRoute))
                is ExerciseRouteResult.ConsentRequired ->
                    startActivityForResult(this, routeContract.createIntent(context, workoutId), "onRouteConsent")
                else -> resolve(answer("none", null))
            }
        }
    }

    @ActivityCallback
    private fun onRouteConsent(call: PluginCall?, result: ActivityResult) {
        if (call == null) return
        val route = routeContract.parseResult(result.resultCode, result.data)
        call.resolve(if (route == null) answer("denied", null) else answer("route", route))
    }

    /** The locations as the JavaScript side reads them: lat, lng, at (ISO 8601), accuracy and altitude in metres. */
    private fun answer(status: String, route: ExerciseRoute?): JSObject {
        val fixes = JSArray()
        route?.route?.forEach { location ->
            val fix = JSObject()
                .put("lat", location.latitude)
                .put("lng", location.longitude)
                .put("at", location.time.toString())
            location.horizontalAccuracy?.let { fix.put("accuracy", it.inMeters) }
            location.altitude?.let { fix.put("altitude", it.inMeters) }
            fixes.put(fix)
        }
        return JSObject().put("status", status).put("fixes", fixes)
    }

    private companion object {
        /** Health Connect's permission to read every app's exercise routes (android.health.connect.HealthPermissions). */
        const val READ_ROUTES = "android.permission.health.READ_EXERCISE_ROUTES"
        val READ_EXERCISE = HealthPermission.getReadPermission(ExerciseSessionRecord::class)
        val PERMISSIONS = setOf(READ_EXERCISE, READ_ROUTES)

        /**
         * Routes are readable with READ_EXERCISE_ROUTES, or, before Android 15 (which has no such permission), with
         * read access to exercise: Health Connect then asks in its own dialog for each route.
         */
        fun routesReadable(granted: Set<String>): Boolean =
            READ_ROUTES in granted || (Build.VERSION.SDK_INT < Build.VERSION_CODES.VANILLA_ICE_CREAM && READ_EXERCISE in granted)
    }
}
