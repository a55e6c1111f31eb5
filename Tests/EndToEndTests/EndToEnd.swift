// End-to-end journeys: a real latchd on loopback driven by LatchClient (see JourneyTests.swift).
