import Vapor

/// Stops a delivery queue (cancelling sends in flight and waiting retries) when the app shuts down.
struct DeliveryQueueShutdown: LifecycleHandler {
    let queue: DeliveryQueue

    func shutdownAsync(_ application: Application) async {
        await queue.shutdown()
    }
}
