// LatchClient unit tests.
