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
package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"net/http"
	"os"
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
