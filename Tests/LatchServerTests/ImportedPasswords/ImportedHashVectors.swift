// Made by scripts/interop/imported_hash_vectors.py (passlib, bcrypt, Django, firebase-scrypt, hashlib).
// Do not edit: run the script again.

/// Password hashes made by code no one here wrote (issue 45 §2).
enum ImportedHashVectors {
    /// (password, stored text, format name)
    static let all: [(password: String, stored: String, format: String)] = [
        ("correct horse battery staple", "$2b$04$IbArexitbUj/pFHxvyTo/Om0WwXfHm07mhAfH4gKTzg0CSMnAnYSO", "bcrypt"),
        ("pässwörd-ünïcode", "$2b$05$Gt78VrxTzjU6r32vsG4wB.gajIutNe0bKbOsFofyKpvc.129V1UmW", "bcrypt"),
        ("密码🔑パスワード", "$2b$06$SfqjbgI19edH3mvIjt3c1OAO2R9J/x2.H0s/UKFaiTZJErLEuVrQy", "bcrypt"),
        ("p", "$2b$04$PSPaz12O4tnB3xKuwi5cc.FWJ7T1PTza1e1FE2LOVFrIH5kmak.p2", "bcrypt"),
        ("a-password-for-2a", "$2a$05$451Eyqb72WMrVVwB0sYLauTTOlLdICI7ggy4dZiWAJsVUhJhRy.I.", "bcrypt"),
        ("ÿ-php-2y", "$2y$05$uci93caFNa52IwsMG0X6fu73AF.FgkfHzI3htga79UUvSn74PW.Uq", "bcrypt"),
        (
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "$2b$04$wdPNGtKWZ4ZcvvyX7AXhZuwC3KeBXsTI1STXpqZsFWEFZYt5.O8Sq", "bcrypt"
        ),
        ("realistic cost", "$2b$10$eGfYCz/Xp4L4B97Bd86VxeDmIHdVWpWcWAJmVGV5/vJVavx0A2Hiu", "bcrypt"),
        (
            "correct horse battery staple",
            "$scrypt$ln=8,r=8,p=1$CQGAsBYC4Nw7x/j/H4Nw7g$xcOqzxWgKedkP0aOhks5L7ewWRvtNZ7w2mz4vRWDf74", "scrypt"
        ),
        (
            "pässwörd-ünïcode",
            "$scrypt$ln=9,r=7,p=2$Pofw3lvL+d9bqzXmvFfqnQ$bzLqxwEO6jDmds2Rydw0ACGGOS67bTSYP+GryyH1qOg", "scrypt"
        ),
        (
            "密码🔑パスワード", "$scrypt$ln=10,r=6,p=1$tBZC6B2D0JqTci5lLGVMqQ$v/N987wBiw5OX/vm8DqyffaL8c95YtjCsjyVGTq4e4Y",
            "scrypt"
        ),
        ("p", "$scrypt$ln=11,r=5,p=2$3lvrndPam1PKGWPs3VvLeQ$Jsl5td/E8NH8dS7zuiEQpBrP2GGFvGFSQE0qMlk1mmA", "scrypt"),
        (
            "correct horse battery staple",
            "$pbkdf2-sha256$1000$yjkHgND6v3eutfYeI.Q8xw$aqX7ZPKYdk7GqcV/t15vSZIITWMxMTzSdzude0IMCxQ", "pbkdf2_sha256"
        ),
        (
            "correct horse battery staple",
            "$pbkdf2-sha512$1000$L2VszZlTqlU$1K9af0u.AiBbekgVaINQUubv2/WKlFhnHP43UHKaxv/FqJVcQBnyM9oqgO8EWvfT/7A/m5UlWvzJxkmE65DZ6Q",
            "pbkdf2_sha512"
        ),
        (
            "pässwörd-ünïcode",
            "$pbkdf2-sha256$1007$gxBirPW.F6LU2juHsHauFQ$cZKsQldGHlhkq6Lq3P9FkFCbsMelnKPOnJ1RqejiTlM", "pbkdf2_sha256"
        ),
        (
            "pässwörd-ünïcode",
            "$pbkdf2-sha512$1011$8D7n3JtTCgFA$d0mioy2qyV1Q8OufETXb1IZl.Q5qZTlIRbEkwYETo7MDP5IbKoJq9joPdHF/l2767ZT.GxHQcAgGFR1IKqYHXA",
            "pbkdf2_sha512"
        ),
        (
            "密码🔑パスワード", "$pbkdf2-sha256$1014$/v9/j3FOKUWo1RpDaG0NYQ$E.XAaqRnLpF0JYXvGnr3Mr8o52h48kluIrSr/C/Hpcw",
            "pbkdf2_sha256"
        ),
        (
            "密码🔑パスワード",
            "$pbkdf2-sha512$1022$5bwXQmhNac1Zqw$WGK3Xb3rjxfU.9BDXi.Pid70UJBUA6bYD93LBSsBlMClaqwvY/yd7RXFzssnuLdRyqON4CstUPoQJXZPVeVggw",
            "pbkdf2_sha512"
        ),
        (
            "p", "$pbkdf2-sha256$1021$M.bcW8u5V8o555xzTsl5jw$Rg97e78lseZ9NQEYqIYK9oebb3M5mD2xA7CenszAVVs",
            "pbkdf2_sha256"
        ),
        (
            "p",
            "$pbkdf2-sha512$1033$13pvjXEOgRACQIg$46xprhkkKe5Tj4oT6YPSHNCZy0ILBGZOPF0eRkz5L7woNPxKZqT3CqwhAb/EH7rSQWD1feu4mP2ndE9j8qDCpw",
            "pbkdf2_sha512"
        ),
        (
            "correct horse battery staple",
            "pbkdf2_sha256$20000$q8ppBQslnxjvcqneJOb3Lj$8nV9/GJ9fDDxqxrawoNUUnsS7zEDHFnlEFIkY3Vtxws=", "pbkdf2_sha256"
        ),
        (
            "pässwörd-ünïcode",
            "pbkdf2_sha256$20000$4nqPZ4JawetAQnI5MCSath$8zrphpq7/pDP6fRX1l+8wrVYhH7WL8/gVPfve7fleho=", "pbkdf2_sha256"
        ),
        (
            "密码🔑パスワード", "pbkdf2_sha256$20000$DD9DCHJx6VTigcbBpdMyN7$bC1F3zFjAZ3ZL6jmMdqX+9g1sDR92VJ8PBSMTNL5IfA=",
            "pbkdf2_sha256"
        ),
        (
            "p", "pbkdf2_sha256$20000$iCJTvThh4oqtVfPCJqTEeW$YEU8lxBCuvFxgevLaO1D8hjFvBkAlk10UuzzqkOu68M=",
            "pbkdf2_sha256"
        ),
        (
            "django default cost",
            "pbkdf2_sha256$1000000$uu1yRb8YV123vrOO4N3bnZ$uitxMAXW2cXKXGpphmP1fZW4Kt/ipyt5Um7eslHdoU0=", "pbkdf2_sha256"
        ),
        (
            "user1password",
            "{\"algorithm\":\"firebase_scrypt\",\"hash\":\"lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==\",\"mem_cost\":14,\"rounds\":8,\"salt\":\"42xEC+ixf3L2lw==\",\"salt_separator\":\"Bw==\",\"signer_key\":\"jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==\"}",
            "firebase_scrypt"
        ),
        (
            "correct horse battery staple",
            "{\"algorithm\":\"firebase_scrypt\",\"hash\":\"Q4M5BfBOgLA2u7RkK+Bn0RNhvBcU6BK16LNmufvRVZm512AsQPoocSL9VhJLTAZr/chPWhbynIlN+rCEbUiV0g==\",\"mem_cost\":10,\"rounds\":8,\"salt\":\"xwdnap2KUFdzoA==\",\"salt_separator\":\"Bw==\",\"signer_key\":\"jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==\"}",
            "firebase_scrypt"
        ),
        (
            "pässwörd-ünïcode",
            "{\"algorithm\":\"firebase_scrypt\",\"hash\":\"7/L/GrKRyOhPtR8gdwtvYQ71CLM82rObsutD3KajvfglrqWCoZW8ZiZlEjZ8dbyRQ+jKw5k7GxaGNRha68JRdQ==\",\"mem_cost\":11,\"rounds\":7,\"salt\":\"dKA1z039f6Ps4A==\",\"salt_separator\":\"Bw==\",\"signer_key\":\"jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==\"}",
            "firebase_scrypt"
        ),
        (
            "密码🔑パスワード",
            "{\"algorithm\":\"firebase_scrypt\",\"hash\":\"D6Zv6MO4In1QFL0DYanqdNBY09iYqqfWG7EfMMhzZT/wNOmcaEnmRkV4Q3CaQk/oxftgrYon2bsf1B/cdeMYsw==\",\"mem_cost\":12,\"rounds\":6,\"salt\":\"PH9+r53xbvf/Pg==\",\"salt_separator\":\"Bw==\",\"signer_key\":\"jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==\"}",
            "firebase_scrypt"
        ),
        (
            "p",
            "{\"algorithm\":\"firebase_scrypt\",\"hash\":\"bxJyUk8eyZ4QLzaDcahKzVZ9p4OTcqInJBnfvza/1idSh7YNg2x0p6k4Z35cxnV3Brf4WaiJeYQxJhUhmpc1TQ==\",\"mem_cost\":13,\"rounds\":5,\"salt\":\"GRQmkXJqakL/+w==\",\"salt_separator\":\"Bw==\",\"signer_key\":\"jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==\"}",
            "firebase_scrypt"
        ),
        (
            "correct horse battery staple", "{\"algorithm\": \"md5\", \"hash\": \"9cc2ae8a1ba7a93da39b46fc1019c481\"}",
            "md5"
        ),
        (
            "pässwörd-ünïcode",
            "{\"algorithm\": \"md5\", \"hash\": \"0aa946c9e4444a7f92fcfb9ba226415d\", \"salt\": \"s@lt\"}", "md5"
        ),
        (
            "密码🔑パスワード",
            "{\"algorithm\": \"md5\", \"hash\": \"32B7719313E9DB127DBEAB4CD3976AEF\", \"salt\": \"sälz\", \"salt_position\": \"after\"}",
            "md5"
        ),
        (
            "correct horse battery staple",
            "{\"algorithm\": \"sha1\", \"hash\": \"abf7aad6438836dbe526aa231abde2d0eef74d42\"}", "sha1"
        ),
        (
            "pässwörd-ünïcode",
            "{\"algorithm\": \"sha1\", \"hash\": \"8038cddff2119366512addf82336d98a35b9bafe\", \"salt\": \"s@lt\"}",
            "sha1"
        ),
        (
            "密码🔑パスワード",
            "{\"algorithm\": \"sha1\", \"hash\": \"05D960BA3AA14B76BDE78FAAC41EF39E540F7080\", \"salt\": \"sälz\", \"salt_position\": \"after\"}",
            "sha1"
        ),
        (
            "correct horse battery staple",
            "{\"algorithm\": \"sha256\", \"hash\": \"c4bbcb1fbec99d65bf59d85c8cb62ee2db963f0fe106f483d9afa73bd4e39a8a\"}",
            "sha256"
        ),
        (
            "pässwörd-ünïcode",
            "{\"algorithm\": \"sha256\", \"hash\": \"39e9c8233a171aac3583556cf32739c63bde3c04c45cdb9690056c61632caad3\", \"salt\": \"s@lt\"}",
            "sha256"
        ),
        (
            "密码🔑パスワード",
            "{\"algorithm\": \"sha256\", \"hash\": \"2FF50B9B6A76647FC676B87FC4EA8B3AA55170167BBC5E3214A8185AE31225FA\", \"salt\": \"sälz\", \"salt_position\": \"after\"}",
            "sha256"
        )
    ]
}
