package engine

// Stream serves a request log through one door without a log of its own:
// no events, no undo, nothing kept of a request once its pages are freed,
// so that a million requests cost the requests in flight and the pool's
// runs (package replay drives it, with the time each request holds its
// pages). It follows Send's rules — the API's context check, each server's
// validate_input_length, the door, decode's prealloc of fill_len pages
// with the configured allocator, prefill's transfer of its prompt or its
// placeholder in whole pages (the last page's tail from prefill's own
// page), decode attending over kv_committed_len, free() that clears
// nothing unless ScrubOnFree — and leaves out what a log line would carry:
// cancels, deferred releases, the writer check and the gateway.
//
// Pages record tenants, not requests: who wrote a page is the tenant the
// replay numbers (any id but 0), since only whose KV a response carries
// is counted.
type Stream struct {
	cfg    Config
	decode *pool
	// prefill holds a request's pages only within Serve, from its forward
	// pass to its transfer; what its pages keep after free() is what a
	// whole-page transfer carries past the last token sent.
	prefill *pool
	// The requests that hold decode's pages, as pop_preallocated weighs
	// them: how many, their fill_len in all, and how many of them would
	// need each fill_len + min(max_new_tokens, CLIP_MAX_NEW_TOKEN).
	active      int
	retractable int
	needs       map[int]int
	mostNeed    int
}

// NewStream is a stream through cfg's door and decode pool, or a
// *ConfigError.
func NewStream(cfg Config) (*Stream, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Stream{cfg: cfg,
		decode:  newPool(decodeIndex, cfg.PagesOf(ServerDecode), cfg.PageTokens, cfg.Allocator),
		prefill: newPool(prefillIndex, cfg.PagesOf(ServerPrefill), cfg.PageTokens, cfg.Allocator)}, nil
}

// StreamRequest is one request through a Stream: what it asks, then what
// Admit, Serve and Release make of it.
type StreamRequest struct {
	Tenant       int32 // the replay's number for the tenant; not 0
	PromptTokens int

	// Status is the HTTP status: 400 when Admit ends the request (the
	// API's check, or a door that retires its pending rejection: nothing
	// is allocated), else what Serve answers.
	Status int
	// Window: prefill's intake rejected the prompt and decode's admitted
	// it, whatever the door then did.
	Window bool
	// Leaks are the other tenants whose KV decode attended over.
	Leaks         []StreamLeak
	ForeignPages  int // pages whose first position another tenant wrote
	ForeignTokens int // positions another tenant wrote

	// NeverSent: prefill's half was retired at its own door (#38935) and
	// decode's waits out SGLANG_DISAGGREGATION_WAITING_TIMEOUT before its
	// 500; the replay holds its pages that long.
	NeverSent bool
	// MaxNewTokens is what the client sent (0: SGLang's default);
	// NeverFits: even decode's empty pool is short of its prealloc budget.
	MaxNewTokens int
	NeverFits    bool

	maxNew     int   // after decode's init_req_max_new_tokens
	fill, sent int   // fill_len decode reserves; what prefill transfers
	built      int   // what prefill's forward pass builds
	abort      bool  // decode answers 400 after the transfer
	reserved   Pages // held from Serve to Release
}

// StreamLeak is one other tenant's KV in a response.
type StreamLeak struct {
	Tenant        int32
	Pages, Tokens int
}

// Admit is intake and the door (Config.Admit, as Send). It returns false
// when the request ends there (Status 400, nothing allocated), or when it
// could never be preallocated, even in decode's empty pool (NeverFits,
// Status 0): in SGLang it would stop DecodePreallocQueue for good; the
// replay counts and names it instead. Else Serve reserves its pages.
func (s *Stream) Admit(r *StreamRequest) bool {
	v := s.cfg.Admit(r.PromptTokens, r.MaxNewTokens)
	r.Window, r.maxNew = v.Window(), v.MaxNew
	switch {
	case v.Refused != NotRefused || v.Door == DoorRetires:
		r.Status = 400
		return false
	case v.Door == DoorRetiresPrefill:
		// SGLang's door (#38935): prefill's half is retired, decode's
		// reserves and waits for KV that never comes (perServerDoors,
		// neverSent), then answers 500 and frees its pages unread.
		r.fill, r.NeverSent = v.Fill, true
	default:
		r.fill, r.sent, r.built = v.Fill, min(v.Sent, v.Fill), v.Sent // what decode's reservation takes
		// Decode's pending rejection, or the length check (#38704's
		// second part), ends it before decode attends.
		r.abort = v.DecodeRejected || (v.PrefillRejected && r.sent < r.fill && s.cfg.Mode.checksLength())
	}
	empty := Budget{Available: s.cfg.PagesOf(ServerDecode) * s.cfg.PageTokens}
	if !empty.Check(r.fill, r.maxNew, s.cfg.ReservedDecodeTokens, s.cfg.PageTokens).Fits() {
		r.NeverFits = true
		return false
	}
	return true
}

// Pages is how many decode pages Serve reserves for an admitted request.
func (s *Stream) Pages(r *StreamRequest) int { return s.pagesFor(r.fill) }

func (s *Stream) pagesFor(tokens int) int { return (tokens + s.cfg.PageTokens - 1) / s.cfg.PageTokens }

// Transferred is how many tokens prefill runs and sends: the prompt, or
// its one placeholder token.
func (r *StreamRequest) Transferred() int { return r.sent }

// FreePages is how many pages decode's allocator has, staged ones too.
func (s *Stream) FreePages() int { return s.decode.freeCount() }

// Serve is decode's prealloc, prefill's transfer and decode attending over
// kv_committed_len. It returns false, with nothing reserved, when the
// request does not fit decode's prealloc budget (Budget): it waits in
// DecodePreallocQueue. The requests that hold pages count as the running
// batch, with no output yet.
func (s *Stream) Serve(r *StreamRequest) bool {
	if !s.budget().Check(r.fill, r.maxNew, s.cfg.ReservedDecodeTokens, s.cfg.PageTokens).Fits() {
		return false
	}
	s.decode.free.mergeForExtend(r.fill, s.cfg.PageTokens) // as Send's prealloc, alloc_extend
	pages, _, err := s.decode.free.take(s.Pages(r))
	if err != nil {
		return false
	}
	s.hold(r, 1)
	d := s.decode
	d.allocated += pages.Len()
	d.applyNoUndo(mutation{kind: mutAlloc, pages: pages, req: r.Tenant})
	r.reserved = pages
	if r.NeverSent {
		r.Status = 500
		return true
	}
	d.applyNoUndo(mutation{kind: mutWrite, pages: pages.Head(s.pagesFor(r.sent)), req: r.Tenant, tokens: r.sent, src: s.forward(r)})
	r.Status = 200
	if r.abort {
		r.Status = 400
		return true
	}
	if r.maxNew <= 1 {
		return true // finished in decode's prebuilt batch: nothing attended
	}
	read := pages.Head(s.Pages(r))
	d.attend(read, r.fill, func(_, n int, w int32, span int) {
		if w != noRequest && w != r.Tenant {
			r.ForeignPages += n
			r.addLeak(w, n, span)
		}
	}, func(_ int, w0, w int32, n int) {
		if w0 != noRequest && w0 != r.Tenant {
			r.addLeak(w0, 0, -n)
		}
		if w != noRequest && w != r.Tenant {
			r.addLeak(w, 0, n)
		}
	})
	return true
}

// forward is prefill's forward pass over what it builds, in its own pool,
// freed again once sent. It returns what prefill's page held past the last
// token sent, which the whole-page transfer carries into decode's last
// page (nil when that page is full), as Send's senderTail.
func (s *Stream) forward(r *StreamRequest) positions {
	p, size := s.prefill, s.cfg.PageTokens
	built, _, err := p.free.take(s.pagesFor(r.built))
	if err != nil {
		return nil // prefill holds nothing between Serves: it cannot be short
	}
	p.applyNoUndo(mutation{kind: mutAlloc, pages: built, req: r.Tenant})
	p.applyNoUndo(mutation{kind: mutWrite, pages: built, req: r.Tenant, tokens: r.built})
	var tail positions
	if r.sent%size != 0 {
		tail = p.positionsOf(built.Tail(r.sent / size).Head(1)[0].First)
	}
	p.applyNoUndo(mutation{kind: mutFree, pages: built})
	if s.cfg.ScrubOnFree {
		p.applyNoUndo(mutation{kind: mutScrub, pages: built})
	}
	p.free.put(built)
	return tail
}

// addLeak adds pages and positions of tenant w's KV to the response.
func (r *StreamRequest) addLeak(w int32, pages, tokens int) {
	r.ForeignTokens += tokens
	for i := range r.Leaks {
		if r.Leaks[i].Tenant == w {
			r.Leaks[i].Pages += pages
			r.Leaks[i].Tokens += tokens
			return
		}
	}
	r.Leaks = append(r.Leaks, StreamLeak{Tenant: w, Pages: pages, Tokens: tokens})
}

// Leaked reports whether the response carried another tenant's KV.
func (r *StreamRequest) Leaked() bool { return r.ForeignTokens > 0 }

// Release frees the request's pages — free() clears nothing unless the
// config scrubs — once.
func (s *Stream) Release(r *StreamRequest) {
	if len(r.reserved) == 0 {
		return
	}
	d := s.decode
	d.applyNoUndo(mutation{kind: mutFree, pages: r.reserved})
	if s.cfg.ScrubOnFree {
		d.applyNoUndo(mutation{kind: mutScrub, pages: r.reserved})
	}
	d.free.put(r.reserved)
	d.allocated -= r.reserved.Len()
	r.reserved = nil
	s.hold(r, -1)
}

// hold counts r in (+1) or out (−1) of the requests holding pages.
func (s *Stream) hold(r *StreamRequest, sign int) {
	need := r.fill + min(r.maxNew, ClipMaxNewTokens)
	if s.needs == nil {
		s.needs = map[int]int{}
	}
	s.active += sign
	s.retractable += sign * r.fill
	s.needs[need] += sign
	switch {
	case sign > 0:
		s.mostNeed = max(s.mostNeed, need)
	case s.needs[need] == 0:
		delete(s.needs, need)
		if need == s.mostNeed {
			s.mostNeed = 0
			for n := range s.needs {
				s.mostNeed = max(s.mostNeed, n)
			}
		}
	}
}

// budget is decode's pool as pop_preallocated weighs it.
func (s *Stream) budget() Budget {
	b := Budget{Available: s.decode.freeCount() * s.cfg.PageTokens, Active: s.active, Retractable: s.retractable}
	if s.active > 0 {
		b.NeedSingle = s.mostNeed - s.retractable
	}
	return b
}

// applyNoUndo makes m's change without recording what it overwrote.
func (t *pageTable) applyNoUndo(m mutation) {
	var partials []partialChange
	if m.kind == mutWrite || m.kind == mutScrub {
		partials = t.partialChanges(m)
	}
	t.change(m, false)
	t.setPartials(partials, true)
}
