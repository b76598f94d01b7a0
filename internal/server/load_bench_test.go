package server

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Load check: loadRequests requests per round at loadConcurrency against
// the real server on loopback, with Accept-Encoding: br. Loops are bounded
// by count and every request by the client timeout.
const (
	loadRequests    = 2000
	loadConcurrency = 32
	loadWasmSize    = 3 << 20
)

func BenchmarkLoad(b *testing.B) {
	fx := buildSite(b, loadWasmSize)
	addr := startServer(b, Options{Dir: fx.dir}, Timeouts{})
	for _, name := range []string{"index.html", "web/app.wasm"} {
		wantLen := int64(len(brotliBytes(b, fx.files[name])))
		b.Run(strings.ReplaceAll(name, "/", "_"), func(b *testing.B) {
			benchLoad(b, "http://"+addr+"/"+name, wantLen)
		})
	}
}

func benchLoad(b *testing.B, url string, wantLen int64) {
	client := &http.Client{
		Timeout: 30 * time.Second,
		Transport: &http.Transport{
			DisableCompression:  true,
			MaxIdleConnsPerHost: loadConcurrency,
		},
	}
	defer client.CloseIdleConnections()
	var all []time.Duration
	var busy time.Duration
	for b.Loop() {
		lat, elapsed, err := loadRound(client, url, wantLen)
		if err != nil {
			b.Fatal(err)
		}
		all = append(all, lat...)
		busy += elapsed
	}
	slices.Sort(all)
	b.ReportMetric(float64(len(all))/busy.Seconds(), "req/s")
	b.ReportMetric(ms(all[len(all)/2]), "p50-ms")
	b.ReportMetric(ms(all[len(all)*99/100]), "p99-ms")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// loadRound sends loadRequests GETs from loadConcurrency workers and
// returns each latency and the round's wall time, or the first failure.
func loadRound(client *http.Client, url string, wantLen int64) ([]time.Duration, time.Duration, error) {
	jobs := make(chan int)
	lat := make([]time.Duration, loadRequests)
	errs := make(chan error, loadConcurrency)
	var wg sync.WaitGroup
	start := time.Now()
	for range loadConcurrency {
		wg.Go(func() {
			for i := range jobs {
				t0 := time.Now()
				if err := fetchBR(client, url, wantLen); err != nil {
					errs <- err
					for range jobs { // drain so the feeder finishes
					}
					return
				}
				lat[i] = time.Since(t0)
			}
		})
	}
	for i := range loadRequests {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	elapsed := time.Since(start)
	close(errs)
	if err := <-errs; err != nil {
		return nil, 0, err
	}
	return lat, elapsed, nil
}

func fetchBR(client *http.Client, url string, wantLen int64) error {
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept-Encoding", "br")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	switch {
	case err != nil:
		return err
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("%s: status %d", url, resp.StatusCode)
	case resp.Header.Get("Content-Encoding") != "br":
		return fmt.Errorf("%s: Content-Encoding %q, want br", url, resp.Header.Get("Content-Encoding"))
	case n != wantLen:
		return fmt.Errorf("%s: %d bytes, want %d", url, n, wantLen)
	}
	return nil
}
