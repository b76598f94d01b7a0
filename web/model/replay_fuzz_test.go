package model

import (
	"bytes"
	"testing"

	"kvleak/engine"
	"kvleak/replay"
)

// FuzzReplayPanel puts any text in the Replay panel's fields and any bytes
// in its log: a field it refuses has a message, a log it refuses an error,
// and whatever it replays builds a view without a panic, in which the
// fixed door leaks nothing and the counts agree with the result.
func FuzzReplayPanel(f *testing.F) {
	f.Add(false, "8", "0", "20,000", "30", "1", byte(0), []byte(demoReplayLog))
	f.Add(true, "3", "42", "1", "60000", "3", byte(1), []byte("{\"timestamp\": 0, \"input_length\": 120000, \"output_length\": 3, \"hash_ids\": [1]}\n{\"timestamp\": 5, \"input_length\": 125000, \"output_length\": 1}\n"))
	f.Add(true, "0", "-1", "x", "1e999", "x", byte(0), []byte("TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.6805900,374,44\nbad,,\n"))
	f.Add(false, "", "", "12.5", "0.5", "2", byte(2), []byte("<b>not a log</b>"))
	f.Add(false, "8", "0", "20,000", "30", "2", byte(0), []byte("t,tenant,session,prompt_tokens,output_tokens\n0,=A,s,120,4\n1,B,s,125,4\n"))
	f.Fuzz(func(t *testing.T, shared bool, tenants, seed, tps, tpot, instances string, preset byte, log []byte) {
		cfgs := []engine.Config{engine.DemoConfig(), hourConfig()}
		cfg := cfgs[int(preset)%len(cfgs)]
		opts, errs := ReplayForm{Shared: shared, Tenants: tenants, Seed: seed, PrefillTPS: tps, TPOTms: tpot, Instances: instances}.Options(cfg)
		if errs != nil {
			for id, msg := range errs {
				if msg == "" {
					t.Fatalf("%s refused without a message", id)
				}
			}
			return
		}
		job, err := StartReplay(bytes.NewReader(log), int64(len(log)), opts)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("a log refused without a message")
			}
			return
		}
		for {
			done, err := job.Step(7)
			if err != nil {
				if err.Error() == "" {
					t.Fatal("a log refused without a message")
				}
				return
			}
			if p := job.Progress(); p.Read > p.Size {
				t.Fatalf("read %d of %d bytes", p.Read, p.Size)
			}
			if done {
				break
			}
		}
		res := job.Result()
		files := job.Files()
		if !bytes.HasPrefix(files.Pairs, []byte(replay.PairsHeader+"\r\n")) || !bytes.HasPrefix(files.Tenants, []byte(replay.TenantsHeader+"\r\n")) ||
			bytes.Count(files.Pairs, []byte("\r\n"))-1 < res.Vulnerable.Leaked {
			t.Fatalf("files %q, %q for %d leaks", files.Pairs, files.Tenants, res.Vulnerable.Leaked)
		}
		v := NewReplayView(res, shared)
		if v.Data.FixedLeaked != 0 || v.Data.Leaked != res.Vulnerable.Leaked || v.Data.Requests != res.Vulnerable.Requests {
			t.Fatalf("data %+v for %+v", v.Data, res.Vulnerable)
		}
		if (v.FirstLeakLink == "") != (v.Data.Leaked == 0) {
			t.Fatalf("a link %q for %d leaks", v.FirstLeakLink, v.Data.Leaked)
		}
		if v.FirstLeakLink != "" {
			if _, err := DecodeLink(v.FirstLeakLink[1:]); err != nil {
				t.Fatalf("the first leak's link does not open: %v", err)
			}
		}
		for _, b := range v.Chart.Bars {
			if b.Fixed || b.X < ChartLeft || b.X+b.W > ChartRight+1e-9 || b.H <= 0 || b.Y < ChartTop-1e-9 {
				t.Fatalf("bar %+v", b)
			}
		}
	})
}
