// The benchmark's receiver for issue 42 (scripts/bench/event_streams.sh): Go's standard library only.
// Answers every POST 204 at once, keeps each event's id, its `timestamp` (the change's time) and the arrival time;
// GET /stats answers {"count", "distinct", "first", "last", "latencies_ms": [...]} (arrival minus the change's time)
// and GET /reset forgets everything.
package main

import (
	"encoding/json"
	"flag"
	"io"
	"log"
	"net/http"
	"sync"
	"time"
)

type arrival struct {
	id      string
	changed time.Time
	at      time.Time
}

var (
	mutex    sync.Mutex
	arrivals []arrival
)

func receive(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	now := time.Now()
	var event struct {
		Type      string `json:"type"`
		Timestamp string `json:"timestamp"`
		Data      struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if json.Unmarshal(body, &event) == nil {
		changed, _ := time.Parse(time.RFC3339Nano, event.Timestamp)
		mutex.Lock()
		arrivals = append(arrivals, arrival{event.Data.ID, changed, now})
		mutex.Unlock()
	}
	w.WriteHeader(http.StatusNoContent)
}

func stats(w http.ResponseWriter, r *http.Request) {
	mutex.Lock()
	defer mutex.Unlock()
	seen := map[string]bool{}
	latencies := make([]float64, 0, len(arrivals))
	var first, last float64
	for index, a := range arrivals {
		seen[a.id] = true
		latencies = append(latencies, float64(a.at.Sub(a.changed).Microseconds())/1000)
		at := float64(a.at.UnixNano()) / 1e9
		if index == 0 {
			first = at
		}
		last = at
	}
	json.NewEncoder(w).Encode(map[string]any{
		"count": len(arrivals), "distinct": len(seen), "first": first, "last": last, "latencies_ms": latencies})
}

func reset(w http.ResponseWriter, r *http.Request) {
	mutex.Lock()
	arrivals = nil
	mutex.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func main() {
	address := flag.String("listen", "127.0.0.1:18090", "address")
	flag.Parse()
	http.HandleFunc("/hook", receive)
	http.HandleFunc("/stats", stats)
	http.HandleFunc("/reset", reset)
	log.Fatal(http.ListenAndServe(*address, nil))
}
