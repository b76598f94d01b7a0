package deploycheck

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"kvleak/engine"
)

// The flags read from a launch command (server_args.py derives each from
// its field: context_length → --context-length).
const (
	flagContext = "--context-length"
	flagPool    = "--max-total-tokens"
	flagPage    = "--page-size"
	flagMode    = "--disaggregation-mode"
	flagBackend = "--disaggregation-transfer-backend"
	flagReserve = "--num-reserved-decode-tokens"
)

// parseLaunch reads a server's launch command: python -m
// sglang.launch_server … or the sglang serve entry point newer releases
// recommend, as a shell would split it (quotes, backslash line
// continuations, comments).
func parseLaunch(text string) (Server, error) {
	args, err := splitCommand(text)
	if err != nil {
		return Server{}, err
	}
	return launchFrom(args, "", false)
}

// launchFrom reads a server from the words of its launch: flags take their
// last value, as argparse does. image is the container image, when a
// Kubernetes spec names one; listed says the words are an args list, whose
// launcher may be the image's entrypoint. Where a flag is absent the server
// runs SGLang's default, which is assumed when it is harmless (page size 1,
// backend mooncake, mode null); the context length is left to the other
// server (Check), and the pool, which only the running server knows, is
// refused with where to read it.
func launchFrom(args []string, image string, listed bool) (Server, error) {
	at := -1
	for i := range args {
		if isLauncher(args, i) {
			if at >= 0 {
				return Server{}, inputErr("", "the text holds two launch commands: paste the prefill server's in the prefill box and the decode server's in the decode box")
			}
			at = i
		}
	}
	s := Server{Source: FromLaunch, names: launchNames}
	if at < 0 {
		if !listed || !slices.ContainsFunc(args, isSGLangFlag) {
			return Server{}, inputErr("", "the text is neither JSON nor an SGLang launch command: paste what %s answers, or the command that starts the server (python -m sglang.launch_server …), or its Kubernetes args list", serverInfo)
		}
		s.LauncherAssumed = true
	}
	before := args[:max(at, 0)]
	if image != "" {
		before = append([]string{image}, before...)
	}
	s.Version, s.VersionFrom, s.ImageTag = versionBefore(before)

	flags := map[string]string{}
	for i := at + 1; i < len(args); i++ {
		name, val, hasVal := strings.Cut(args[i], "=")
		if !isOurFlag(name) {
			continue
		}
		if !hasVal {
			if i+1 >= len(args) || strings.HasPrefix(args[i+1], "--") {
				return Server{}, inputErr(name, "%s has no value", name)
			}
			i++
			val = args[i]
		}
		flags[name] = val
	}

	ctx, hasCtx := flags[flagContext]
	v, ok := flags[flagPool]
	if !ok {
		msg := fmt.Sprintf("%s is missing: without it the pool is what the GPUs' memory holds at start-up, which the command does not show. "+
			"The running server says it: max_total_num_tokens in what it answers at %s (paste that JSON instead), or in its start-up log line "+
			"\"max_total_num_tokens=…, chunked_prefill_size=…, max_prefill_tokens=…, max_running_requests=…, context_len=…\"; add %s with that number", flagPool, serverInfo, flagPool)
		if !hasCtx {
			msg += fmt.Sprintf(". %s is missing too: the same line's context_len=… gives it", flagContext)
		}
		return Server{}, inputErr(flagPool, "%s", msg)
	}
	if s.PoolTokens, ok = pyInt(v); !ok {
		return Server{}, inputErr(flagPool, "%s %q: must be a whole number of tokens", flagPool, clip(v))
	}
	s.PoolIsCap = true
	if hasCtx {
		if s.ContextTokens, ok = humanInt(ctx); !ok {
			return Server{}, inputErr(flagContext, "%s %q: must be a whole number of tokens, such as 1048576 or 1M", flagContext, clip(ctx))
		}
		if s.ContextTokens == 0 {
			return Server{}, inputErr(flagContext, "%s 0: must be between 1 and %s tokens", flagContext, engine.Thousands(engine.MaxContextTokens))
		}
	}
	s.PageTokens, s.PageAssumed = 1, true
	if v, ok := flags[flagPage]; ok {
		if s.PageTokens, ok = pyInt(v); !ok {
			return Server{}, inputErr(flagPage, "%s %q: must be a whole number of tokens", flagPage, clip(v))
		}
		s.PageAssumed = false
	}
	s.Mode, s.ModeAssumed = ModeNull, true
	if v, ok := flags[flagMode]; ok {
		s.Mode, s.ModeAssumed = v, false
	}
	s.Backend, s.BackendAssumed = "mooncake", true
	if v, ok := flags[flagBackend]; ok {
		s.Backend, s.BackendAssumed = v, false
	}
	if v, ok := flags[flagReserve]; ok {
		if s.ReservedDecodeTokens, ok = pyInt(v); !ok {
			return Server{}, inputErr(flagReserve, "%s %q: must be a whole number of tokens", flagReserve, clip(v))
		}
		s.ReservedSaid = true
	}
	return s, nil
}

// isSGLangFlag reports whether a word is a flag the check reads, or the
// --model-path every launch has: what marks an args list as SGLang's.
func isSGLangFlag(a string) bool {
	name, _, _ := strings.Cut(a, "=")
	return isOurFlag(name) || name == "--model-path"
}

// isOurFlag reports whether a word is one of the flags the check reads.
func isOurFlag(a string) bool {
	name, _, _ := strings.Cut(a, "=")
	switch name {
	case flagContext, flagPool, flagPage, flagMode, flagBackend, flagReserve:
		return true
	}
	return false
}

// isLauncher reports whether args[i] starts SGLang's server.
func isLauncher(args []string, i int) bool {
	a := args[i]
	switch {
	case a == "sglang.launch_server", strings.HasSuffix(a, "sglang/launch_server.py"):
		return true
	case path.Base(a) == "sglang" && i+1 < len(args) && args[i+1] == "serve":
		return true
	}
	return false
}

// versionBefore finds the release in what runs the server: an image tag
// (lmsysorg/sglang:v0.5.20-cu129) or a pinned install (sglang==0.5.20).
// A tag that names no release is returned as tag.
func versionBefore(args []string) (v, from, tag string) {
	for _, a := range args {
		if rest, ok := strings.CutPrefix(path.Base(a), "sglang:"); ok {
			cand, _, _ := strings.Cut(rest, "-")
			if _, ok := parseVersion(cand); ok {
				return strings.TrimPrefix(cand, "v"), "the image tag " + a, ""
			}
			tag = a
		}
		if i := strings.Index(a, "=="); i > 0 && (a[:i] == "sglang" || strings.HasPrefix(a[:i], "sglang[")) {
			if _, ok := parseVersion(a[i+2:]); ok {
				return a[i+2:], a, ""
			}
		}
	}
	return "", "", tag
}

// splitCommand splits a command line as a POSIX shell would, for the
// quoting people write: single and double quotes, backslash escapes, a
// backslash at the end of a line joining the next, and # comments.
func splitCommand(text string) ([]string, error) {
	var (
		args  []string
		cur   strings.Builder
		inArg bool
		quote byte // ' or " while inside quotes
	)
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case quote == '"':
			switch {
			case c == '"':
				quote = 0
			case c == '\\' && i+1 < len(text) && strings.IndexByte("\"\\$`\n", text[i+1]) >= 0:
				i++
				if text[i] != '\n' {
					cur.WriteByte(text[i])
				}
			default:
				cur.WriteByte(c)
			}
		case c == '\\':
			if i+1 < len(text) {
				i++
				if text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n' {
					i++
				}
				if text[i] != '\n' {
					cur.WriteByte(text[i])
					inArg = true
				}
			}
		case c == '\'' || c == '"':
			quote, inArg = c, true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inArg {
				args = append(args, cur.String())
				cur.Reset()
				inArg = false
			}
		case c == '#' && !inArg:
			for i < len(text) && text[i] != '\n' {
				i++
			}
		default:
			cur.WriteByte(c)
			inArg = true
		}
	}
	if quote != 0 {
		return nil, inputErr("", "a quote (%c) in the command is not closed", quote)
	}
	if inArg {
		args = append(args, cur.String())
	}
	return args, nil
}

// pyInt reads what Python's int() reads from a command-line value: an
// optional sign, digits and single underscores between them.
func pyInt(s string) (int, bool) {
	s = strings.TrimSpace(s)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	n, digits := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9':
			if digits++; digits > 12 {
				return 0, false // far past any bound; no overflow
			}
			n = n*10 + int(c-'0')
		case c == '_' && i > 0 && i+1 < len(s) && s[i-1] != '_':
		default:
			return 0, false
		}
	}
	if digits == 0 {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

// humanInt reads --context-length as SGLang's human_readable_int does: a
// plain integer, or a number with a suffix, k m g t decimal (25.6k is
// 25,600) and K M G T binary and whole (1M is 1,048,576).
func humanInt(s string) (int, bool) {
	s = strings.TrimSpace(s)
	if n, ok := pyInt(s); ok {
		return n, true
	}
	if s == "" {
		return 0, false
	}
	var mult int
	switch s[len(s)-1] {
	case 'k':
		mult = 1_000
	case 'm':
		mult = 1_000_000
	case 'g':
		mult = 1_000_000_000
	case 't':
		mult = 1_000_000_000_000
	case 'K':
		mult = 1 << 10
	case 'M':
		mult = 1 << 20
	case 'G':
		mult = 1 << 30
	case 'T':
		mult = 1 << 40
	default:
		return 0, false
	}
	whole, frac, hasFrac := strings.Cut(s[:len(s)-1], ".")
	if whole == "" || len(whole) > 7 || len(frac) > 7 || hasFrac && (frac == "" || s[len(s)-1] < 'a') {
		return 0, false
	}
	n := 0
	for _, c := range []byte(whole + frac) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	for range frac {
		mult /= 10 // exact for the decimal suffixes: 10^len(frac) divides mult or the digits run past it
	}
	if mult == 0 {
		return 0, false
	}
	return n * mult, true
}
