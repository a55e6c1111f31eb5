/// What kind of address a receiver URL names or its host resolves to (issue 42 §3), after the IANA
/// special-purpose registries (RFC 6890 and its updates). Only `.publicAddress` is reachable without
/// `ReceiverAddressRules.allowsPrivateAddresses`. The raw value is the code logs and errors show.
enum ReceiverAddressKind: String, Sendable, Hashable, CaseIterable {
    /// A globally routed unicast address.
    case publicAddress = "public"
    /// This machine: 127.0.0.0/8, ::1.
    case loopback
    /// A private network: 10/8, 172.16/12, 192.168/16, fc00::/7 (unique local), fec0::/10 (site-local).
    case privateNetwork = "private"
    /// The link: 169.254/16 (where cloud metadata services listen), fe80::/10.
    case linkLocal = "link_local"
    /// Carrier-grade NAT's shared address space, 100.64/10 (RFC 6598).
    case carrierGradeNAT = "carrier_grade_nat"
    /// "This host": 0.0.0.0/8 and :: (a connection to 0.0.0.0 reaches this machine on Linux).
    case unspecified
    /// 224/4, ff00::/8.
    case multicast
    /// 255.255.255.255.
    case broadcast
    /// 192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32, 3fff::/20.
    case documentation
    /// 198.18/15, 2001:2::/48.
    case benchmarking
    /// Anything else not routed on the internet: 240/4, 192.0.0/24, 192.88.99/24, Teredo 2001::/32, the
    /// discard prefix 100::/64, the rest of ::/8 and everything outside 2000::/3.
    case reserved

    /// A short human phrase ("a loopback address").
    var phrase: String {
        switch self {
        case .publicAddress: "a public address"
        case .loopback: "a loopback address"
        case .privateNetwork: "a private address"
        case .linkLocal: "a link-local address"
        case .carrierGradeNAT: "a carrier-grade NAT address"
        case .unspecified: "an unspecified address"
        case .multicast: "a multicast address"
        case .broadcast: "the broadcast address"
        case .documentation: "a documentation address"
        case .benchmarking: "a benchmarking address"
        case .reserved: "a reserved address"
        }
    }
}
