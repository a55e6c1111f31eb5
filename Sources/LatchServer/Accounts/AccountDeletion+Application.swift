extension AccountDeletion {
    /// The deletion of `application`'s accounts (the admin API and `latchd admin`).
    public init(application: LatchApplication) {
        self.init(
            latch: application.latch, appleTokens: application.identityServices.appleTokens,
            logger: application.logger)
    }
}
