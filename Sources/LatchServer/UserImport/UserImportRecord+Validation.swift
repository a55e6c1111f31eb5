import Foundation
import LatchCore

extension UserImportRecord {
    /// Checks every field of `line` and reads its hashes: a record, or the first reason to refuse it.
    static func validate(_ line: ImportedUserLine, allowLegacy: Bool, caps: ImportedHashCaps = .standard)
        -> Result<UserImportRecord, UserImportRefusal>
    {
        do {
            return .success(try record(of: line, allowLegacy: allowLegacy, caps: caps))
        } catch let refusal as UserImportRefusal {
            return .failure(refusal)
        } catch {
            return .failure(.invalidJSON)
        }
    }

    private static func record(of line: ImportedUserLine, allowLegacy: Bool, caps: ImportedHashCaps) throws
        -> UserImportRecord
    {
        let externalID = try line.externalId.map { id in
            guard (1...255).contains(id.utf8.count), !id.unicodeScalars.contains(where: isControl) else {
                throw UserImportRefusal.invalid("external_id")
            }
            return id
        }
        let email = try line.email.map { raw in
            guard let email = EmailAddress(raw) else { throw UserImportRefusal.invalid("email") }
            return email
        }
        guard externalID != nil || email != nil else { throw UserImportRefusal.noKey }
        let phone = try line.phone.map { raw in
            guard let phone = PhoneNumber(raw) else { throw UserImportRefusal.invalid("phone") }
            return phone
        }
        let nickname: String?
        do { nickname = try Validate.nickname(line.nickname) } catch { throw UserImportRefusal.invalid("nickname") }
        let password = try line.passwordHash.map {
            try storedPassword($0, field: "password_hash", allowLegacy: allowLegacy, caps: caps)
        }
        let fundPassword = try line.fundPasswordHash.map {
            try storedPassword($0, field: "fund_password_hash", allowLegacy: allowLegacy, caps: caps)
        }
        let recoveryCodes = try (line.recoveryCodes ?? []).map { value in
            try importedHash(value, field: "recovery_codes", allowLegacy: allowLegacy, caps: caps)
        }
        guard recoveryCodes.count <= maximumRecoveryCodes else { throw UserImportRefusal.invalid("recovery_codes") }
        let totpSecret = try line.totp.map(totpSecret)
        guard recoveryCodes.isEmpty || totpSecret != nil else { throw UserImportRefusal.invalid("recovery_codes") }
        let identities = try (line.identities ?? []).map(identity)
        guard Set(identities.map(\.provider)).count == identities.count else {
            throw UserImportRefusal.invalid("identities")
        }
        let devices = try (line.knownDevices ?? []).map { device in
            guard Validate.deviceName(device.id) == device.id, device.id.count <= 100 else {
                throw UserImportRefusal.invalid("known_devices")
            }
            return ImportedUserLine.KnownDevice(
                id: device.id, name: Validate.deviceName(device.name), lastSeenAt: device.lastSeenAt)
        }
        guard devices.count <= maximumKnownDevices, Set(devices.map(\.id)).count == devices.count else {
            throw UserImportRefusal.invalid("known_devices")
        }
        var legacy = line.passwordChangeRequired ?? false
        if case .imported(let hash) = password, hash.isLegacy { legacy = true }
        return UserImportRecord(
            externalID: externalID, email: email, emailVerified: email != nil && (line.emailVerified ?? false),
            phone: phone, nickname: nickname, createdAt: line.createdAt?.epochSeconds, password: password,
            fundPassword: fundPassword, totpSecret: totpSecret, recoveryCodes: recoveryCodes, identities: identities,
            knownDevices: devices, disabled: line.disabled ?? false, frozen: line.frozen ?? false,
            passwordChangeRequired: legacy)
    }

    /// latchd's own export form, `{"algorithm": "latch_bcrypt_sha256", "hash": "$2b$…"}`, or another system's.
    private static func storedPassword(
        _ value: ImportedHashValue, field: String, allowLegacy: Bool, caps: ImportedHashCaps
    ) throws -> StoredPassword {
        if let own = LatchPasswordExport(text: value.text) {
            guard let cost = own.cost, cost <= caps.bcryptCost else {
                throw UserImportRefusal.hash(
                    field, .overCap(parameter: "cost", value: own.cost ?? 0, cap: caps.bcryptCost))
            }
            return .latch(own.hash)
        }
        return .imported(try importedHash(value, field: field, allowLegacy: allowLegacy, caps: caps))
    }

    private static func importedHash(
        _ value: ImportedHashValue, field: String, allowLegacy: Bool, caps: ImportedHashCaps
    ) throws -> ImportedPasswordHash {
        do {
            let hash = try ImportedPasswordHash(stored: value.text, allowLegacy: allowLegacy)
            try hash.check(caps)
            return hash
        } catch let refusal as ImportedHashRefusal {
            throw UserImportRefusal.hash(field, refusal)
        }
    }

    private static func totpSecret(_ totp: ImportedUserLine.TOTP) throws -> [UInt8] {
        guard (totp.algorithm ?? "SHA1").uppercased() == "SHA1", (totp.digits ?? 6) == 6, (totp.period ?? 30) == 30
        else {
            throw UserImportRefusal(
                reason: "totp_parameters_unsupported",
                detail: "latchd's authenticator codes are SHA1, 6 digits, 30 seconds")
        }
        let cleaned = totp.secret.filter { !$0.isWhitespace && $0 != "=" && $0 != "-" }.uppercased()
        guard let secret = Base32.decode(cleaned), (10...64).contains(secret.count) else {
            throw UserImportRefusal.invalid("totp_secret")
        }
        return secret
    }

    private static func identity(_ identity: ImportedUserLine.Identity) throws -> ProvenIdentityKey {
        func valid(_ text: String?) -> String? {
            guard let text, (1...255).contains(text.utf8.count), !text.unicodeScalars.contains(where: isControl)
            else { return nil }
            return text
        }
        switch identity.provider {
        case "apple":
            guard let sub = valid(identity.sub) else { throw UserImportRefusal.invalid("identities") }
            return ProvenIdentityKey(provider: .apple, subject: sub)
        case "wechat":
            // As WeChatOAuth keys the person: unionid when WeChat gives one, else openid.
            if let unionid = valid(identity.unionid) {
                return ProvenIdentityKey(provider: .wechat, subject: "unionid:\(unionid)")
            }
            guard let openid = valid(identity.openid) else { throw UserImportRefusal.invalid("identities") }
            return ProvenIdentityKey(provider: .wechat, subject: "openid:\(openid)")
        default:
            throw UserImportRefusal.invalid("identities")
        }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control
    }
}
