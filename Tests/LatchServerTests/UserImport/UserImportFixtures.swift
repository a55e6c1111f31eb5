// Made by scripts/interop/user_import_fixtures.py (Python's bcrypt and hashlib); do not edit.

/// Hashes made by code no one here wrote, each with the secret it hashes (issue 45).
enum UserImportFixtures {
    static let bcryptPassword = (
        secret: "Imported-Pass-1", hash: #"$2b$05$SxgyiQIKIe.UEHeXeGXdaOAsBv0A3MXFeBinv8nF1.0fwL6.kik5a"#
    )
    static let djangoPassword = (
        secret: "Django-Pass-2", hash: #"pbkdf2_sha256$1000$q9sWfYzC2kR1$QA758Fan+2pvYaJFdGaUip96qzOlDvkLJH/lnVOUvOs="#
    )
    static let md5Password = (secret: "Legacy-Pass-3", hash: #"f688bc7309180db4825fba099afe8472"#)
    static let bcryptFundPassword = (
        secret: "Fund-Pass-77", hash: #"$2b$04$XqjVglTJs7HZBvpjqK/2D.9OfcAnHelQQTxe3MBpDCEvGljqbdIHq"#
    )
    static let bcryptRecoveryCode = (
        secret: "rc-code-0001", hash: #"$2b$04$6vbcHneRs0CLYmo1dujUPOyo8B.zXAnHRJNBnCITVkjCUrVpPh0hq"#
    )
}
