package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRequestValidate(t *testing.T) {
	ok := Request{Tenant: "A", PromptTokens: 8, Content: "hello"}
	cases := []struct {
		name  string
		edit  func(r *Request)
		field string // "" when valid
		msg   string // part of the message
	}{
		{"ok", func(r *Request) {}, "", ""},
		{"content empty is fine", func(r *Request) { r.Content = "" }, "", ""},
		{"tenant with a space", func(r *Request) { r.Tenant = "team a" }, "", ""},
		{"tenant non-ASCII", func(r *Request) { r.Tenant = "équipe-😀" }, "", ""},
		{"tenant 32 chars", func(r *Request) { r.Tenant = strings.Repeat("a", 32) }, "", ""},
		{"tenant 32 runes of 2 bytes", func(r *Request) { r.Tenant = strings.Repeat("é", 32) }, "", ""},

		{"tenant empty", func(r *Request) { r.Tenant = "" }, "tenant", "tenant name is empty"},
		{"tenant 33 chars", func(r *Request) { r.Tenant = strings.Repeat("a", 33) }, "tenant", "tenant name has 33 characters: at most 32 allowed"},
		{"tenant 33 runes", func(r *Request) { r.Tenant = strings.Repeat("é", 33) }, "tenant", "33 characters"},
		{"tenant NUL", func(r *Request) { r.Tenant = "A\x00" }, "tenant", "control or invisible character (U+0000)"},
		{"tenant tab", func(r *Request) { r.Tenant = "A\tB" }, "tenant", "(U+0009)"},
		{"tenant DEL", func(r *Request) { r.Tenant = "A\x7f" }, "tenant", "(U+007F)"},
		// unicode.IsPrint is false for format characters (Cf) and for every
		// space but U+0020.
		{"tenant zero-width space", func(r *Request) { r.Tenant = "A\u200b" }, "tenant", "(U+200B)"},
		{"tenant only zero-width space", func(r *Request) { r.Tenant = "\u200b" }, "tenant", "(U+200B)"},
		{"tenant right-to-left override", func(r *Request) { r.Tenant = "A\u202eB" }, "tenant", "(U+202E)"},
		{"tenant BOM", func(r *Request) { r.Tenant = "\ufeffA" }, "tenant", "(U+FEFF)"},
		{"tenant no-break space", func(r *Request) { r.Tenant = "A\u00a0B" }, "tenant", "(U+00A0)"},
		{"tenant invalid UTF-8", func(r *Request) { r.Tenant = "A\xff" }, "tenant", "tenant name is not valid UTF-8"},
		{"tenant truncated UTF-8", func(r *Request) { r.Tenant = "\xc3" }, "tenant", "not valid UTF-8"},

		{"content 200 chars", func(r *Request) { r.Content = strings.Repeat("x", MaxContentLen) }, "", ""},
		{"content 201 chars", func(r *Request) { r.Content = strings.Repeat("x", MaxContentLen+1) }, "content", "content has 201 characters: at most 200 allowed"},
		{"content newline", func(r *Request) { r.Content = "line\nline" }, "content", "(U+000A)"},
		{"content invalid UTF-8", func(r *Request) { r.Content = "\xfe\xfe" }, "content", "content is not valid UTF-8"},

		{"tokens 1", func(r *Request) { r.PromptTokens = 1 }, "", ""},
		{"tokens max", func(r *Request) { r.PromptTokens = MaxPromptTokens }, "", ""},
		{"tokens 0", func(r *Request) { r.PromptTokens = 0 }, "tokens", "prompt length 0: must be between 1 and 67,108,864 tokens"},
		{"tokens -1", func(r *Request) { r.PromptTokens = -1 }, "tokens", "prompt length -1: must be between 1 and 67,108,864 tokens"},
		{"tokens max+1", func(r *Request) { r.PromptTokens = MaxPromptTokens + 1 }, "tokens", "between 1 and 67,108,864"},
		{"tokens huge", func(r *Request) { r.PromptTokens = 1 << 62 }, "tokens", "between 1 and 67,108,864"},

		{"cancel at each stage", func(r *Request) { r.CancelAt = StageDecodeRunning }, "", ""},
		{"cancel at intake", func(r *Request) { r.CancelAt = StageIntake }, "cancelAt", `cancel stage "intake"`},
		{"cancel at response", func(r *Request) { r.CancelAt = StageResponse }, "cancelAt", `cancel stage "response"`},
		{"cancel at release", func(r *Request) { r.CancelAt = StageRelease }, "cancelAt", "must be one of the pipeline stages"},
		{"cancel unknown", func(r *Request) { r.CancelAt = "prefill.Forward" }, "cancelAt", "must be one of the pipeline stages"},
		{"fail transfer", func(r *Request) { r.FailTransfer = true }, "", ""},
		{"cancel and fail", func(r *Request) { r.CancelAt, r.FailTransfer = StagePrefillForward, true }, "cancelAt", "cancel or fail the transfer, not both"},

		{"tenant checked first", func(r *Request) { r.Tenant, r.PromptTokens = "", 0 }, "tenant", "empty"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := ok
			tc.edit(&r)
			err := r.Validate()
			if tc.field == "" {
				require.NoError(t, err)
				return
			}
			var re *RequestError
			require.True(t, errors.As(err, &re), "want a *RequestError, got %T (%v)", err, err)
			assert.Equal(t, tc.field, re.Field)
			assert.Contains(t, re.Error(), tc.msg)
		})
	}
}

func TestEveryCancelStageIsValid(t *testing.T) {
	for _, s := range CancelStages {
		assert.NoError(t, Request{Tenant: "A", PromptTokens: 1, CancelAt: s}.Validate(), s)
	}
}

// A request the engine refuses changes nothing: not the log, the responses,
// the metrics, the tenants nor the pool.
func TestSendBadRequestChangesNothing(t *testing.T) {
	bad := []Request{
		{Tenant: "", PromptTokens: 8},
		{Tenant: "Z", PromptTokens: 0},
		{Tenant: "Z\x00", PromptTokens: 8},
		{Tenant: "Z", PromptTokens: 8, Content: strings.Repeat("x", 201)},
		{Tenant: "Z", PromptTokens: 8, CancelAt: "bogus"},
		{Tenant: "Z", PromptTokens: 8, CancelAt: StagePrefillForward, FailTransfer: true},
		{Tenant: "Z", PromptTokens: 1 << 62},
	}
	e := newEngine(t, abortConfig(CancelOneHalf))
	// Some history first, including a lingering request and stale pages.
	send(t, e, Request{Tenant: "A", PromptTokens: 8, Content: DemoSecret, CancelAt: StagePrefillForward})
	send(t, e, Request{Tenant: "B", PromptTokens: 8})
	before := capture(e)
	require.Equal(t, []int{1}, before.Lingering)
	for i, r := range bad {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			resp, err := e.Send(r)
			var re *RequestError
			require.ErrorAs(t, err, &re)
			assert.Equal(t, Response{}, resp)
			assert.Equal(t, before, capture(e))
			_, err = Replay(e.Config(), []Op{SendOp(r)})
			assert.ErrorAs(t, err, &re, "Replay reports the op that failed")
			assert.Contains(t, err.Error(), "operation 1: ")
		})
	}
}

func TestApplyRejectsMalformedOps(t *testing.T) {
	e := newEngine(t, DemoConfig())
	before := capture(e)
	for _, op := range []Op{{}, {Send: &Request{Tenant: "A", PromptTokens: 1}, Settle: &Settle{1, OutcomeDrained}}} {
		var re *RequestError
		require.ErrorAs(t, e.Apply(op), &re)
		assert.Equal(t, "op", re.Field)
	}
	assert.Equal(t, before, capture(e))
}

func TestMaxTenants(t *testing.T) {
	e := newEngine(t, DemoConfig())
	for i := range MaxTenants {
		send(t, e, Request{Tenant: fmt.Sprintf("t%02d", i), PromptTokens: 100}) // API reject: cheap
	}
	require.Len(t, e.Tenants(), MaxTenants)
	before := capture(e)
	_, err := e.Send(Request{Tenant: "one too many", PromptTokens: 1})
	var re *RequestError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, "tenant", re.Field)
	assert.Contains(t, re.Error(), "at most 64 tenants")
	assert.Equal(t, before, capture(e), "a refused tenant changes nothing")

	// A tenant already seen can still send.
	resp := send(t, e, Request{Tenant: "t00", PromptTokens: 8})
	assert.Equal(t, 200, resp.Status)
	assert.Equal(t, "t00", e.TenantOf(resp.Request))
	assert.Len(t, e.Tenants(), MaxTenants)
}

func TestMaxRequests(t *testing.T) {
	e := newEngine(t, Config{ContextTokens: 2, PoolTokens: 16, DecodePoolTokens: 16, PageTokens: 1,
		Mode: Vulnerable, Cancel: CancelOneHalf, KVBytesPerToken: 1})
	// One lingering request, so that Settle can be tried at the limit.
	send(t, e, Request{Tenant: "A", PromptTokens: 1, CancelAt: StagePrefillForward})
	for i := 1; i < MaxRequests; i++ {
		resp, err := e.Send(Request{Tenant: "B", PromptTokens: 2})
		require.NoError(t, err, "request %d", i+1)
		require.Equal(t, PathAPIReject, resp.Path)
	}
	require.Equal(t, MaxRequests, e.Metrics().Requests)
	before := capture(e)
	_, err := e.Send(Request{Tenant: "A", PromptTokens: 1})
	var re *RequestError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, "requests", re.Field)
	assert.Contains(t, re.Error(), "20,000 requests")
	assert.Equal(t, before, capture(e))

	// Settling is still allowed: it adds no request.
	require.NoError(t, e.Settle(1, OutcomeDrained))
	assert.Equal(t, 0, e.Metrics().Decode.Allocated)
}

func TestTenantOf(t *testing.T) {
	e := replayPreset(t, "demo")
	assert.Equal(t, "A", e.TenantOf(1))
	assert.Equal(t, "B", e.TenantOf(2))
	assert.Empty(t, e.TenantOf(0))
	assert.Empty(t, e.TenantOf(3))
	assert.Empty(t, e.TenantOf(-1))
	assert.Equal(t, []string{"A", "B"}, e.Tenants())
}
