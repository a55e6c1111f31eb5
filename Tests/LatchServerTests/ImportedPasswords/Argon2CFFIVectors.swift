// Written by scripts/interop/argon2_vectors.py with argon2-cffi 25.1.0; rerun it rather than edit this file.

/// argon2 PHC strings made by Python's argon2-cffi (the reference implementation) for issue 45 §2.
enum Argon2CFFIVectors {
    /// Each password with the PHC string argon2-cffi made for it.
    static let all: [(password: String, phc: String)] = [
        (
            "a",
            "$argon2id$v=19$m=8,t=1,p=1$wmuUFY62fGk$bOPeyw"
        ),
        (
            "password",
            "$argon2id$v=19$m=64,t=2,p=1$gImnvVE0snLJBI58r9fBRw$gTy2EiWNIogTLn1RL7AFUFbCPrtp3flNk5CYvt72lvo"
        ),
        (
            "correct horse battery staple",
            "$argon2id$v=19$m=256,t=3,p=2$PS67psOIqrmIdLXp/dc/sA$uvLXQZL6zQmlAE6RAFzRgy60F4LXnTQyGoJBa0JOxAc"
        ),
        (
            "Tr0ub4dor&3",
            "$argon2id$v=19$m=4096,t=1,p=4$BFm1FWPUQ/jTsuJ3h4Vuzw$El2NyfkXvpAOpZrU6aXkRBJLOL+b6PrqaHJThEAa5uo"
        ),
        (
            "\u{43F}\u{430}\u{440}\u{43E}\u{43B}\u{44C}",
            """
            $argon2id$v=19$m=1024,t=2,p=3$pHEBXRE4fkaWZScQ8Zna9zF8RdOdpw$4SyGIbg+/3/AEXMfRn7yySuYvqZx1sPO5FuRtbl\
            sVnoLEKGbxPpNG0v3D7r5A8U1nGcdnpf7Y+8B9yIdMi2dOg
            """
        ),
        (
            "\u{65E5}\u{672C}\u{8A9E}\u{306E}\u{30D1}\u{30B9}\u{30EF}\u{30FC}\u{30C9}",
            """
            $argon2id$v=19$m=100,t=1,p=4$DxMHXgiQdLzh5aE4+As0lm2lFzbJwGzo1nEE2GEEJ60$evje8JevRxQSL+ujrdc9jVBKvt1\
            gb6vN8G2b7w9Oq51aXOr6+mWc5t+rCpKcN8NFllBbe0lwXm3giRQD9dU39z8
            """
        ),
        (
            "\u{1F510} cafe\u{301} caf\u{E9}",
            """
            $argon2id$v=19$m=32,t=4,p=1$D+PRdoW9WtjkvySQi3oEGA$NoO69y/2Qb4oBNVDX0qN0l6ebACBNndpwWx84jMDR5s85cXPs\
            j63uHwo85Lr3k7tc+IWh0gq7ffIPaarS4zZDFqeWDiLU3nNA2yO4yCqzjr5I/Zttcx1LxMDrHZp0Nb0Bgs4eqE+D0TJiqRDml13z\
            elvsUSKcelK0ulhgVO6vqw+x81/YFU20fyTzJHX3rDQ9SfMCNPEr+K+Ek8Npb5vK7sXZWH7q9b3+A0OiGyZkwY/7YsZI3VNkioA1\
            EDAVEF7KbhgqmG2y7kEZ6iemQqwqvc/H/nkOt5LKEUXtwdaIvcepQaH6VQzaqqxQq1orhOTjkYdehG10UjXuYp8BaJ9YdABdqlzI\
            Rh8q1wpJXrcxnbqao2px4GA1AWrxxa31OqSFVhzBhHO4YipOEmtFD7xgqGu+88pmz5XTILhoSnkxXl4kVtQRBVKLmFXcALw2akxY\
            sDSHUk2QUIR0CKkZPadrdGN1dz3cxxu5EeZ9Xb7aoabzXoxL2x6Q+EcyGJxqor4QW+sJThvDGPrlYbpygkJhCiW5Cj1pgrQaLtT2\
            J/Tg1/1yrkrJtqRxO0TrXXtqh5t8h1G/dxipomk3HXMrxV4i1U3MNGmkIAXuMBhXGIXGweODUVKtZyXvkZV4VYjJS9lvpd4dyej4\
            ipTrqjzRF4xjW78V6BtACE3KCKkL7f8Jhf17CLn5PTXYyLoIb8uwxAn3zIKAw8seRU+ZAKVCu2heiRtkB2gojy/n/lSkTSC87kR/\
            OMfNU246v3LPADlonNMBBQX6vTvgLdgf4nTfv3IRrwixIHLPmYb/1USvldu24UoBKwGBpH10lf46h+XgdMG1j5OEXntvlTtBRYjk\
            0mxp8ebsURK4QmcOZ5Dc+qjlGXXtMOQFWIbO5GWSlDsbKan52ZWeMc7buLguxLzBrpI1mr4byetvUPRVRUmNimEVeUddrjz3+8RI\
            aHYfc+829olLcOy3iKVh6eLbaTPj2QfXQ/lCOt7jwIm44J/EUcTjLy9mZ8/MezXk00xqTzsRL3bEFYBWO1V/vK6YUuM4DzKTYeSu\
            IrfEmGnwJxvTb7nfFz2I04LmxE4MZItSEb+0wH5d0xXqBGosrx/QQO7kD5W8x0w3SVXNgnXzXEq9WNMNMyQ8il+A3rlEqWuA/hrG\
            LRYube9E5VqPpG4dmOPnsIEsVMryp2Cs+NAGdmXuRA2xRiKCXW/VDpBfk1HKzneX8Oki2ka7R1W7Mc9D37lum5gf/XqNptms9OIi\
            g9pKAT92txWgDnVrESFq6fBJBbaPkTk/0oqJwGf8XtlKIH5LLP9RFFkhtEqL30yIIuaGk9aDSaW0q8oBThyjk/wO5//3CqrF60Ts\
            utERAChehW8ZUA3pA
            """
        ),
        (
            "",
            "$argon2i$v=19$m=8,t=1,p=1$NsSvHnIoSko$DfQzzZzhXPjbs4lLwOKnTA"
        ),
        (
            "Stra\u{DF}e",
            "$argon2i$v=19$m=512,t=3,p=2$jMSIq15HfcUPAI3HdU9Lyg$5WDjoo4wNaB8NivDzguHn28Qdn5sDZmwCrLHqetvT9U"
        ),
        (
            "one lane, four address blocks a segment",
            "$argon2i$v=19$m=2048,t=1,p=1$Lqsf2LVDd/wKtea3fpT06w$xMsohE3S1UwO33DJXoTAQbE16EACS9CMwKV6TxXC+/U"
        ),
        (
            "argon2d",
            "$argon2d$v=19$m=64,t=2,p=2$YKd5T3lLz318bZPsEqCQNA$Uly4WZX2go0wboZCY9TX4Cq7X2vqqHAH2+OfqGUdquQ"
        ),
        (
            "\u{FC}mlaut \"quoted\" \\ backslash",
            """
            $argon2d$v=19$m=1024,t=1,p=1$lA+4iJqkEbdPFtKs$nq2TnJsY4gG93wxzmz1YtRL7WZ4QpVyMoyAjLhWXjP3F5lMKA3TaTS\
            xGTZXmy8oN
            """
        ),
        (
            "version 16, argon2id",
            "$argon2id$v=16$m=256,t=2,p=2$LeWAU9zBOxrveoflGetN5A$c60s3T/z5BiBbntziYgcc1wBC0yyqfEn5OxjI7xxoW4"
        ),
        (
            "version 16, argon2i",
            "$argon2i$v=16$m=128,t=3,p=1$ediB+jfd2xW0WLWxAVzBKQ$fjWAKfON+jwqMr6CFD/66g1oP2bBA3OLl0e5xvj2tWo"
        ),
        (
            "version 16, argon2d",
            "$argon2d$v=16$m=64,t=2,p=1$Z9NxkanM3ZhUX4T/G97QbQ$dIb1aXlB/3xWKHV7ArRqrdFNSDTzhMkx36BJoGnJOqE"
        ),
        (
            "hunter2",
            "$argon2id$v=19$m=1024,t=2,p=2$gISUgnhwRqv9+qx7YSrWTw$Lt9MScEwiYPSBo0tpjS+hH9br/NV0fbkTUl9gXr/k50"
        ),
        (
            "\u{395}\u{3BB}\u{3BB}\u{3B7}\u{3BD}\u{3B9}\u{3BA}\u{3AC}",
            "$argon2i$v=19$m=512,t=2,p=1$tGzWIUWm/FZO3cvXtUOcGQ$WrMPR0VQ+JwNJ8YJavP8X/oG3Cj8bRpRg3FJfRIKhKA"
        )
    ]
}
