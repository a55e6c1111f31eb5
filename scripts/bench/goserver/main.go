// The comparison server of issue 21: what a Go service on the stack Supabase Auth is built on does for
// the same two routes, the slow way (no verified-token cache): net/http, golang-jwt verifying ES256 on
// every request, go-sqlite3 loading the user from latchd's own SQLite file (the same `users` layout).
//
// Build (Debian's packages golang-go, golang-github-golang-jwt-jwt-dev, golang-github-mattn-go-sqlite3-dev):
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go build -o /tmp/goserver scripts/bench/goserver/main.go
//
// Run: goserver -db latch.sqlite -addr 127.0.0.1:18081 -tokens tokens.txt
// It signs one access token per user (ES256, its own key, sub = user id) into -tokens, then serves
// GET /health → {"status":"ok"} and GET /user (Bearer) → the same JSON user latchd's /v1/me answers.
//
// POST /token (issue 29 §3; also served at /v1/token, the path scripts/bench/refresh.lua posts to) is
// latchd's refresh grant on SQLite, {"grant_type":"refresh_token","refresh_token":"…"}, done with the same
// database work: the token's SHA-256 (hex), latchd's SELECT … JOIN of SQLiteRefreshStatements.find, the
// same checks (not revoked, refresh_expires_at not passed, younger than -session-max-days, no DPoP binding,
// presented counter = session counter), the sealed session secret opened (AES-GCM under HKDF-SHA256 of
// LATCH_SECRET_KEY, as SecretBox), the next token HMAC-SHA256(secret, "latch-refresh-v1:n+1"), and the
// conditional UPDATE … RETURNING of SQLiteRefreshStatements.rotate (latchd's trigger records the new
// token's hash); then an ES256 access token (golang-jwt, latchd's claims) and latchd's JSON answer.
// A lost race, the 10 s grace answer and the revocation of a replayed chain follow RefreshTokenRotation.
// It runs only with LATCH_SECRET_KEY in the environment (latchd's key for that file), so the refresh
// tokens latchd hands out (a password sign-in) are the ones it refreshes; -issuer sets the tokens' iss.
// Each statement is prepared per request, as SQLiteNIO does for latchd (-prepared: database/sql's reused
// statements); the UPDATEs queue on one connection (-writer-conns), the reads use one per core.
package main

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"math"
	"net/http"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/golang-jwt/jwt"
	_ "github.com/mattn/go-sqlite3"
)

// Fields in latchd's order (its encoder sorts keys), so both answer the same bytes.
type user struct {
	CreatedAt     string     `json:"created_at"`
	Email         *string    `json:"email,omitempty"`
	EmailVerified bool       `json:"email_verified"`
	ID            string     `json:"id"`
	Identities    []identity `json:"identities"`
	Nickname      *string    `json:"nickname,omitempty"`
}

type identity struct {
	Identifier *string `json:"identifier,omitempty"`
	LinkedAt   string  `json:"linked_at"`
	Provider   string  `json:"provider"`
}

func iso(seconds float64) string {
	sec, frac := math.Modf(seconds)
	return time.Unix(int64(sec), int64(frac*1e9)).UTC().Format("2006-01-02T15:04:05Z")
}

func main() {
	dbPath := flag.String("db", "latch.sqlite", "latchd's SQLite file")
	addr := flag.String("addr", "127.0.0.1:18081", "listen address")
	tokens := flag.String("tokens", "", "write one signed access token per user here, then serve")
	count := flag.Int("count", 40, "how many tokens to write")
	issuer := flag.String("issuer", "", "iss of the access tokens POST /token signs (default http://ADDR)")
	maxDays := flag.Float64("session-max-days", 90, "a session's absolute lifetime (latchd: LATCH_SESSION_MAX_DAYS)")
	prepared := flag.Bool("prepared", false, "POST /token: reuse prepared statements (latchd's SQLiteNIO prepares each query)")
	writers := flag.Int("writer-conns", 1, "POST /token: connections for the UPDATEs (0: the same pool as the reads)")
	flag.Parse()

	db, err := sql.Open("sqlite3", "file:"+*dbPath+"?mode=ro&_journal_mode=WAL")
	if err != nil {
		log.Fatal(err)
	}
	db.SetMaxOpenConns(64)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		log.Fatal(err)
	}
	if *tokens != "" {
		writeTokens(db, key, *tokens, *count)
	}
	stmt, err := db.Prepare("SELECT id, email, email_verified, nickname, created_at FROM users WHERE id = ?")
	if err != nil {
		log.Fatal(err)
	}
	// latchd's /v1/me lists the ways to sign in: the email, then the linked identities.
	linked, err := db.Prepare("SELECT provider, subject, email, created_at FROM identities WHERE user_id = ? ORDER BY created_at")
	if err != nil {
		log.Fatal(err)
	}
	if encoded := os.Getenv("LATCH_SECRET_KEY"); encoded != "" {
		if *issuer == "" {
			*issuer = "http://" + *addr
		}
		r, err := newRefresher(*dbPath, encoded, key, *issuer, *maxDays*24*3600, *prepared, *writers)
		if err != nil {
			log.Fatal(err)
		}
		http.HandleFunc("/token", r.serve)
		http.HandleFunc("/v1/token", r.serve)
	}
	http.HandleFunc("/health", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"status":"ok"}`))
	})
	http.HandleFunc("/user", func(w http.ResponseWriter, r *http.Request) {
		raw := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		token, err := jwt.Parse(raw, func(t *jwt.Token) (interface{}, error) {
			if t.Method != jwt.SigningMethodES256 {
				return nil, fmt.Errorf("alg")
			}
			return &key.PublicKey, nil
		})
		if err != nil || !token.Valid {
			http.Error(w, `{"error":"AUTH_004"}`, http.StatusUnauthorized)
			return
		}
		claims := token.Claims.(jwt.MapClaims)
		sub, _ := claims["sub"].(string)
		var u user
		var id string
		var created float64
		// latchd's SQLite file keeps ids as upper-case UUID text (Fluent's SQLite driver).
		if err := stmt.QueryRow(strings.ToUpper(sub)).Scan(&id, &u.Email, &u.EmailVerified, &u.Nickname, &created); err != nil {
			http.Error(w, `{"error":"AUTH_004"}`, http.StatusUnauthorized)
			return
		}
		u.ID = sub
		u.CreatedAt = iso(created)
		u.Identities = []identity{}
		if u.Email != nil {
			u.Identities = append(u.Identities, identity{Identifier: u.Email, LinkedAt: u.CreatedAt, Provider: "email"})
		}
		rows, err := linked.Query(id)
		if err != nil {
			http.Error(w, `{"error":"INTERNAL_ERROR"}`, http.StatusInternalServerError)
			return
		}
		for rows.Next() {
			var provider, subject string
			var email *string
			var at float64
			if err := rows.Scan(&provider, &subject, &email, &at); err != nil {
				rows.Close()
				http.Error(w, `{"error":"INTERNAL_ERROR"}`, http.StatusInternalServerError)
				return
			}
			linkedIdentity := identity{LinkedAt: iso(at), Provider: provider}
			switch provider {
			case "phone":
				linkedIdentity.Identifier = &subject
			case "apple":
				linkedIdentity.Identifier = email
			}
			u.Identities = append(u.Identities, linkedIdentity)
		}
		rows.Close()
		body, err := json.Marshal(u)
		if err != nil {
			http.Error(w, `{"error":"INTERNAL_ERROR"}`, http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	})
	log.Fatal(http.ListenAndServe(*addr, nil))
}

func writeTokens(db *sql.DB, key *ecdsa.PrivateKey, path string, count int) {
	rows, err := db.Query("SELECT id FROM users LIMIT ?", count)
	if err != nil {
		log.Fatal(err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			log.Fatal(err)
		}
		sub := strings.ToLower(id)
		claims := jwt.MapClaims{"sub": sub, "aud": "latch", "iss": "go", "exp": time.Now().Add(2 * time.Hour).Unix()}
		signed, err := jwt.NewWithClaims(jwt.SigningMethodES256, claims).SignedString(key)
		if err != nil {
			log.Fatal(err)
		}
		lines = append(lines, signed)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		log.Fatal(err)
	}
}

// The refresh grant (POST /token), latchd's RefreshTokenRotation on SQLite.

const (
	accessLifetime  = 7200             // AccessTokens.lifetime
	refreshLifetime = 30 * 24 * 3600.0 // RefreshTokenRotation.lifetime
	graceWindow     = 10.0             // RefreshTokenRotation.graceWindow
)

// SQLiteRefreshStatements.find and .rotate, byte for byte.
const findSQL = `SELECT r.counter AS presented_counter, s.id, s.user_id, s.sealed_secret, s.counter, s.rotated_at,
  s.refresh_expires_at, s.revoked_at, s.created_at, s.dpop_jkt,
  u.email AS user_email, u.email_verified AS user_email_verified, u.nickname AS user_nickname,
  u.created_at AS user_created_at
FROM refresh_tokens r
JOIN sessions s ON s.id = r.session_id
JOIN users u ON u.id = s.user_id
WHERE r.token_hash = ?1`

const rotateSQL = `UPDATE sessions SET counter = ?1, rotated_at = ?2, refresh_expires_at = ?3, last_active_at = ?2,
  rotated_token_hash = ?4
WHERE id = ?5 AND counter = ?6 AND revoked_at IS NULL
RETURNING id`

// The rare paths, as RefreshTokenRotation runs them: the session read again after a lost race
// (Session.find), the one grace answer (claimGrace) and the revocation of a replayed chain.
const (
	reloadSQL = `SELECT counter, rotated_at, refresh_expires_at, revoked_at, created_at, dpop_jkt FROM sessions WHERE id = ?1`
	graceSQL  = `UPDATE sessions SET refresh_grace_counter = ?1
WHERE id = ?2 AND counter = ?1 AND revoked_at IS NULL
  AND (refresh_grace_counter IS NULL OR refresh_grace_counter <> ?1)
RETURNING id`
	revokeSQL = `UPDATE sessions SET revoked_at = ?1 WHERE id = ?2 AND revoked_at IS NULL`
)

type refresher struct {
	reads, writes *sql.DB
	find, rotate  *sql.Stmt // nil unless -prepared
	aead          cipher.AEAD
	key           *ecdsa.PrivateKey
	kid, issuer   string
	maximumAge    float64
}

// Fields in latchd's order (TokenResponse.jsonBody), so both answer the same JSON.
type tokenResponse struct {
	AccessToken      string    `json:"access_token"`
	ExpiresIn        int       `json:"expires_in"`
	RefreshExpiresIn int       `json:"refresh_expires_in"`
	RefreshToken     string    `json:"refresh_token"`
	SessionID        string    `json:"session_id"`
	TokenType        string    `json:"token_type"`
	User             tokenUser `json:"user"`
}

type tokenUser struct {
	CreatedAt     string  `json:"created_at"`
	Email         *string `json:"email,omitempty"`
	EmailVerified bool    `json:"email_verified"`
	ID            string  `json:"id"`
	Nickname      *string `json:"nickname,omitempty"`
}

// AccessTokenClaims (cnf only for a DPoP-bound session, which this peer refuses).
type accessClaims struct {
	Iss string `json:"iss"`
	Sub string `json:"sub"`
	Aud string `json:"aud"`
	Iat int64  `json:"iat"`
	Exp int64  `json:"exp"`
	Jti string `json:"jti"`
	Sid string `json:"sid"`
}

func (accessClaims) Valid() error { return nil }

// The columns of findSQL, in order.
type presented struct {
	counter                   int64
	sessionID, userID, sealed string
	sessionCounter            int64
	rotatedAt                 sql.NullFloat64
	refreshExpiresAt          float64
	revokedAt                 sql.NullFloat64
	createdAt                 float64
	dpopJKT                   sql.NullString
	email, nickname           *string
	emailVerified             bool
	userCreatedAt             float64
}

func newRefresher(path, encodedKey string, key *ecdsa.PrivateKey, issuer string, maximumAge float64, prepared bool, writers int) (*refresher, error) {
	master, err := base64.StdEncoding.DecodeString(encodedKey)
	if err != nil || len(master) != 32 {
		return nil, errors.New("LATCH_SECRET_KEY must be 32 bytes in base64")
	}
	block, err := aes.NewCipher(hkdfSHA256(master, "latch-aes-gcm-v1"))
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	// latchd's connections: WAL, synchronous=NORMAL (LatchApplication+Database), one per core.
	dsn := "file:" + path + "?mode=rw&_journal_mode=WAL&_synchronous=NORMAL&_busy_timeout=5000"
	reads, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, err
	}
	reads.SetMaxOpenConns(runtime.NumCPU())
	reads.SetMaxIdleConns(runtime.NumCPU())
	writes := reads
	if writers > 0 {
		// SQLite takes one writer at a time; a second writer that finds the lock held sleeps in SQLite's
		// busy handler (1 ms and more). Go code queues its writers on a pool of one instead.
		if writes, err = sql.Open("sqlite3", dsn); err != nil {
			return nil, err
		}
		writes.SetMaxOpenConns(writers)
		writes.SetMaxIdleConns(writers)
	}
	kid := make([]byte, 12)
	rand.Read(kid)
	r := &refresher{reads: reads, writes: writes, aead: aead, key: key, kid: base64.RawURLEncoding.EncodeToString(kid),
		issuer: issuer, maximumAge: maximumAge}
	if _, err := reads.Exec("SELECT rotated_token_hash FROM sessions LIMIT 0"); err != nil {
		return nil, fmt.Errorf("%s is not a latchd SQLite file with the rotation trigger: %w", path, err)
	}
	if prepared {
		if r.find, err = reads.Prepare(findSQL); err != nil {
			return nil, err
		}
		if r.rotate, err = writes.Prepare(rotateSQL); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// HKDF-SHA256 with no salt, 32 bytes: CryptoKit's HKDF<SHA256>.deriveKey(inputKeyMaterial:info:outputByteCount:).
func hkdfSHA256(secret []byte, info string) []byte {
	extract := hmac.New(sha256.New, make([]byte, sha256.Size))
	extract.Write(secret)
	expand := hmac.New(sha256.New, extract.Sum(nil))
	expand.Write([]byte(info))
	expand.Write([]byte{1})
	return expand.Sum(nil)
}

// SecretBox.hash: SHA-256, lower-case hex.
func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// RefreshTokenRotation.refreshToken: base64url(HMAC-SHA256(secret, "latch-refresh-v1:n")), no padding.
func refreshToken(secret []byte, counter int64) string {
	mac := hmac.New(sha256.New, secret)
	fmt.Fprintf(mac, "latch-refresh-v1:%d", counter)
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// SecretBox.open: base64 of nonce ‖ ciphertext ‖ tag.
func (r *refresher) open(sealed string) ([]byte, error) {
	combined, err := base64.StdEncoding.DecodeString(sealed)
	if err != nil || len(combined) < r.aead.NonceSize()+r.aead.Overhead() {
		return nil, errors.New("sealed secret")
	}
	size := r.aead.NonceSize()
	return r.aead.Open(nil, combined[:size], combined[size:], nil)
}

// RefreshTokenRotation.isLive.
func (r *refresher) isLive(revokedAt sql.NullFloat64, refreshExpiresAt, createdAt, now float64) bool {
	return !revokedAt.Valid && refreshExpiresAt > now && now < createdAt+r.maximumAge
}

func refuse(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"error":%q,"message":%q}`, code, message)
}

func expired(w http.ResponseWriter) {
	refuse(w, http.StatusUnauthorized, "AUTH_004", "Your session has expired. Please sign in again.")
}

func (r *refresher) serve(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost {
		refuse(w, http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "POST only")
		return
	}
	var body struct {
		GrantType    string `json:"grant_type"`
		RefreshToken string `json:"refresh_token"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, req.Body, 64<<10)).Decode(&body); err != nil ||
		body.GrantType != "refresh_token" {
		refuse(w, http.StatusBadRequest, "INVALID_REQUEST", "only the refresh_token grant")
		return
	}
	// TokenService.refresh: an empty or overlong token is refused before any lookup.
	if body.RefreshToken == "" || len(body.RefreshToken) > 256 {
		expired(w)
		return
	}
	answer, err := r.refresh(body.RefreshToken, time.Now())
	if err != nil {
		if errors.Is(err, errExpired) {
			expired(w)
			return
		}
		log.Print(err)
		refuse(w, http.StatusInternalServerError, "INTERNAL_ERROR", "internal error")
		return
	}
	out, err := json.Marshal(answer)
	if err != nil {
		refuse(w, http.StatusInternalServerError, "INTERNAL_ERROR", "internal error")
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	w.Write(out)
}

var errExpired = errors.New("AUTH_004")

// RefreshTokenRotation.refresh: one read (token, session and user joined) and, for a rotation, one write.
func (r *refresher) refresh(token string, clock time.Time) (*tokenResponse, error) {
	now := float64(clock.UnixNano()) / 1e9
	var p presented
	var row *sql.Row
	if r.find != nil {
		row = r.find.QueryRow(tokenHash(token))
	} else {
		row = r.reads.QueryRow(findSQL, tokenHash(token))
	}
	err := row.Scan(&p.counter, &p.sessionID, &p.userID, &p.sealed, &p.sessionCounter, &p.rotatedAt,
		&p.refreshExpiresAt, &p.revokedAt, &p.createdAt, &p.dpopJKT, &p.email, &p.emailVerified, &p.nickname,
		&p.userCreatedAt)
	if err == sql.ErrNoRows {
		return nil, errExpired
	} else if err != nil {
		return nil, err
	}
	if !r.isLive(p.revokedAt, p.refreshExpiresAt, p.createdAt, now) {
		return nil, errExpired
	}
	// A DPoP-bound session refreshes only with its key's proof; this peer checks no proofs (latchd: wrongKey).
	if p.dpopJKT.Valid {
		return nil, errExpired
	}
	secret, err := r.open(p.sealed)
	if err != nil {
		return nil, err
	}
	counter, rotatedAt, expiresAt := p.sessionCounter, p.rotatedAt, p.refreshExpiresAt
	if p.counter == counter {
		next := counter + 1
		nextToken := refreshToken(secret, next)
		// refreshExpiry: 30 days from now, never past the session's absolute lifetime.
		expires := math.Min(now+refreshLifetime, p.createdAt+r.maximumAge)
		args := []interface{}{next, now, expires, tokenHash(nextToken), p.sessionID, counter}
		var rows *sql.Rows
		if r.rotate != nil {
			rows, err = r.rotate.Query(args...)
		} else {
			rows, err = r.writes.Query(rotateSQL, args...)
		}
		if err != nil {
			return nil, err
		}
		moved := rows.Next()
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		if moved {
			return r.response(&p, nextToken, expires, clock)
		}
		// Another request rotated it first: apply the grace rule to the fresh row.
		var revokedAt sql.NullFloat64
		var createdAt float64
		var jkt sql.NullString
		err := r.reads.QueryRow(reloadSQL, p.sessionID).Scan(&counter, &rotatedAt, &expiresAt, &revokedAt, &createdAt, &jkt)
		if err == sql.ErrNoRows || (err == nil && !r.isLive(revokedAt, expiresAt, createdAt, now)) {
			return nil, errExpired
		} else if err != nil {
			return nil, err
		}
	}
	if p.counter == counter-1 && rotatedAt.Valid && now-rotatedAt.Float64 <= graceWindow {
		rows, err := r.writes.Query(graceSQL, counter, p.sessionID)
		if err != nil {
			return nil, err
		}
		claimed := rows.Next()
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		if claimed {
			return r.response(&p, refreshToken(secret, counter), expiresAt, clock)
		}
	}
	// A replay: the session ends (latchd also records a security event and counts it).
	if _, err := r.writes.Exec(revokeSQL, now, p.sessionID); err != nil {
		return nil, err
	}
	return nil, errExpired
}

// RefreshTokenRotation.response and AccessTokens.issue: ES256 with kid, typ JWT, 2 hours, audience latch.
func (r *refresher) response(p *presented, refresh string, refreshExpiresAt float64, clock time.Time) (*tokenResponse, error) {
	userID, sessionID := strings.ToLower(p.userID), strings.ToLower(p.sessionID)
	iat := clock.Unix()
	token := jwt.NewWithClaims(jwt.SigningMethodES256, accessClaims{
		Iss: r.issuer, Sub: userID, Aud: "latch", Iat: iat, Exp: iat + accessLifetime, Jti: newUUID(), Sid: sessionID,
	})
	token.Header["kid"] = r.kid
	access, err := token.SignedString(r.key)
	if err != nil {
		return nil, err
	}
	return &tokenResponse{
		AccessToken: access, ExpiresIn: accessLifetime,
		RefreshExpiresIn: int(refreshExpiresAt - float64(clock.UnixNano())/1e9), RefreshToken: refresh,
		SessionID: sessionID, TokenType: "Bearer",
		User: tokenUser{CreatedAt: iso(p.userCreatedAt), Email: p.email, EmailVerified: p.emailVerified, ID: userID,
			Nickname: p.nickname},
	}, nil
}

// A random (version 4) UUID in lower case, as latchd's jti.
func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
