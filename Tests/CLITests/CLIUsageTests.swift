import Testing

@Suite("latch usage")
struct CLIUsageTests {}
