package deploycheck

import (
	"fmt"
	"strings"

	"kvleak/internal/jsonlite"
)

// A Kubernetes container runs its command with its args appended (the
// Container's command and args, both lists of strings); manifests write
// them as YAML block sequences ("- --context-length" a line), as flow
// sequences (["--context-length", "1048576"]), or as JSON. The check reads
// the one container whose lists launch SGLang, and its image for the
// release. It reads only these three keys, not YAML as a whole.

// container is one container's image and lists, as the text gives them.
type container struct {
	image           string
	command, args   []string
	hasCmd, hasArgs bool
	hasImage        bool
	line            int // where it starts, for messages
}

// k8sKey is a key the check reads, found in the text.
type k8sKey struct {
	name  string
	line  int // 1-based
	value int // offset of the value in the text, after the colon and spaces
}

// hasK8sKeys reports whether the text holds a command or args key, as a
// container spec writes them.
func hasK8sKeys(t string) bool {
	for _, k := range findKeys(t) {
		if k.name != "image" {
			return true
		}
	}
	return false
}

// parseArgList reads a JSON or YAML flow list of words:
// ["python3", "-m", "sglang.launch_server", …] or the args alone,
// ["--model-path", "…", …].
func parseArgList(t string) (Server, error) {
	if strings.HasPrefix(strings.TrimLeft(t[1:], " \t\r\n"), "{") {
		return Server{}, inputErr("", "the text is a list of objects: %s answers with one object, {\"version\": …, \"context_length\": …, …}, and a Kubernetes args list holds strings", serverInfo)
	}
	items, end, err := flowList(t, 0, 1, "the list")
	if err != nil {
		return Server{}, err
	}
	if rest := strings.TrimSpace(t[end:]); rest != "" {
		return Server{}, inputErr("", "the text goes on after the list's closing ]: paste one list, such as [\"--context-length\", \"1048576\", …]")
	}
	return launchFrom(words(items), "", true)
}

// parseK8s reads a container spec: YAML or JSON with command, args and
// image keys.
func parseK8s(t string) (Server, error) {
	cs, err := containers(t)
	if err != nil {
		return Server{}, err
	}
	var launches []container
	for _, c := range cs {
		w := words(append(append([]string{}, c.command...), c.args...))
		for i := range w {
			if isLauncher(w, i) || isSGLangFlag(w[i]) {
				launches = append(launches, c)
				break
			}
		}
	}
	switch len(launches) {
	case 0:
		return Server{}, inputErr("", "the spec's command and args name no sglang.launch_server and none of %s, %s, %s, %s: paste the container that runs the SGLang server", flagContext, flagPool, flagPage, flagMode)
	case 1:
	default:
		return Server{}, inputErr("", "the spec has %d containers that launch SGLang (lines %d and %d): paste the prefill server's in the prefill box and the decode server's in the decode box", len(launches), launches[0].line, launches[1].line)
	}
	c := launches[0]
	return launchFrom(words(append(append([]string{}, c.command...), c.args...)), c.image, true)
}

// words are a container's words as the server gets them; an item that is
// itself a shell command line (command: ["sh", "-c"], args: ["python3 -m
// sglang.launch_server …"]) is split as the shell splits it.
func words(items []string) []string {
	var out []string
	for _, it := range items {
		if strings.ContainsAny(it, " \t\n") && (strings.Contains(it, "launch_server") || strings.Contains(it, "sglang serve")) {
			if w, err := splitCommand(it); err == nil {
				out = append(out, w...)
				continue
			}
		}
		out = append(out, it)
	}
	return out
}

// containers reads the image, command and args keys in the order the text
// gives them; a key seen twice starts the next container.
func containers(t string) ([]container, error) {
	var (
		out []container
		cur container
	)
	flush := func() {
		if cur.hasCmd || cur.hasArgs || cur.hasImage {
			out = append(out, cur)
		}
		cur = container{}
	}
	for _, k := range findKeys(t) {
		if (k.name == "image" && cur.hasImage) || (k.name == "command" && cur.hasCmd) || (k.name == "args" && cur.hasArgs) {
			flush()
		}
		if !cur.hasCmd && !cur.hasArgs && !cur.hasImage {
			cur.line = k.line
		}
		if k.name == "image" {
			v, err := scalar(t, k)
			if err != nil {
				return nil, err
			}
			cur.image, cur.hasImage = v, true
			continue
		}
		items, err := listAt(t, k)
		if err != nil {
			return nil, err
		}
		if k.name == "command" {
			cur.command, cur.hasCmd = items, true
		} else {
			cur.args, cur.hasArgs = items, true
		}
	}
	flush()
	return out, nil
}

// findKeys finds the image, command and args keys: in YAML at the start of
// a line (after the indent and a "- "), in JSON after { or , anywhere.
func findKeys(t string) []k8sKey {
	var keys []k8sKey
	line := 1
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '\n':
			line++
			continue
		case ' ', '\t', '\r':
			continue
		}
		if !isKeyStart(t, i) {
			continue
		}
		for _, name := range []string{"args", "command", "image"} {
			if v, ok := keyAt(t, i, name); ok {
				keys = append(keys, k8sKey{name: name, line: line, value: v})
				break
			}
		}
	}
	return keys
}

// isKeyStart reports whether a key may start at t[i]: after the start of a
// line and its indent, a "- ", a { or a ,.
func isKeyStart(t string, i int) bool {
	j := i - 1
	for j >= 0 && (t[j] == ' ' || t[j] == '\t' || t[j] == '\r') {
		j--
	}
	if j < 0 || t[j] == '\n' || t[j] == '{' || t[j] == ',' {
		return true
	}
	if t[j] == '-' && j < i-1 {
		k := j - 1
		for k >= 0 && (t[k] == ' ' || t[k] == '\t') {
			k--
		}
		return k < 0 || t[k] == '\n'
	}
	return false
}

// keyAt reports whether name, bare or quoted, then a colon, starts at
// t[i], and where its value starts.
func keyAt(t string, i int, name string) (int, bool) {
	rest := t[i:]
	q := ""
	if rest != "" && (rest[0] == '"' || rest[0] == '\'') {
		q = rest[:1]
	}
	if !strings.HasPrefix(rest, q+name+q) {
		return 0, false
	}
	j := i + len(q+name+q)
	for j < len(t) && (t[j] == ' ' || t[j] == '\t') {
		j++
	}
	if j >= len(t) || t[j] != ':' {
		return 0, false
	}
	j++
	if j < len(t) && t[j] != ' ' && t[j] != '\t' && t[j] != '\n' && t[j] != '\r' && q == "" {
		return 0, false // image:tag in a plain scalar, not a key
	}
	for j < len(t) && (t[j] == ' ' || t[j] == '\t') {
		j++
	}
	return j, true
}

// scalar reads the image key's value: a quoted or plain scalar.
func scalar(t string, k k8sKey) (string, error) {
	end := strings.IndexByte(t[k.value:], '\n')
	if end < 0 {
		end = len(t) - k.value
	}
	v := strings.TrimSpace(t[k.value : k.value+end])
	if v != "" && (v[0] == '"' || v[0] == '\'') {
		s, _, err := quoted(t, k.value, k.line, k.name)
		return s, err
	}
	if c := strings.Index(v, " #"); c >= 0 {
		v = strings.TrimSpace(v[:c])
	}
	return strings.TrimRight(v, ","), nil
}

// listAt reads a command or args key's list: a flow list on the key's
// line, or a block sequence on the lines below it.
func listAt(t string, k k8sKey) ([]string, error) {
	what := fmt.Sprintf("%s (line %d)", k.name, k.line)
	if k.value < len(t) && t[k.value] == '[' {
		items, _, err := flowList(t, k.value, k.line, what)
		return items, err
	}
	eol := strings.IndexByte(t[k.value:], '\n')
	if eol < 0 {
		eol = len(t) - k.value
	}
	if v := strings.TrimSpace(t[k.value : k.value+eol]); v != "" && v[0] != '#' {
		return nil, inputErr("", "%s is %q, not a list: Kubernetes takes a list of strings, [\"--context-length\", \"1048576\"] or one \"- item\" a line", what, clip(v))
	}
	return blockList(t[k.value+eol:], k.line, what)
}

// blockList reads a YAML block sequence: "- item" lines at one indent, each
// item a plain or quoted scalar, or a | or > block (the lines indented
// below it, joined by newlines, as a shell reads them either way).
func blockList(t string, keyLine int, what string) ([]string, error) {
	var (
		items  []string
		indent = -1
		block  = false // the last item is a | or > block
	)
	// t starts at the key line's end; the lines are read one by one, as
	// far as the list goes, so that many lists cost what the text does.
	rest := t
	for n := 0; rest != ""; n++ {
		rest = rest[1:] // the newline
		raw, _, more := strings.Cut(rest, "\n")
		rest = rest[len(raw):] // from the next newline, or empty
		if !more {
			rest = ""
		}
		l := strings.TrimRight(raw, "\r")
		body := strings.TrimLeft(l, " ")
		in := len(l) - len(body)
		if body == "" || body[0] == '#' {
			if block && len(items) > 0 {
				items[len(items)-1] += "\n"
			}
			continue
		}
		if indent >= 0 && in > indent && len(items) > 0 {
			// A continuation: a block's line, or a plain scalar folded on.
			sep := " "
			if block {
				sep = "\n"
			}
			items[len(items)-1] += sep + strings.TrimSpace(l)
			continue
		}
		if body != "-" && !strings.HasPrefix(body, "- ") {
			break // the next key
		}
		if indent < 0 {
			indent = in
		} else if in != indent {
			break
		}
		v := strings.TrimSpace(strings.TrimPrefix(body, "-"))
		line := keyLine + n + 1
		block = false
		switch {
		case v == "":
			return nil, inputErr("", "%s: item %d (line %d) is empty: Kubernetes takes strings", what, len(items)+1, line)
		case v[0] == '[' || v[0] == '{':
			return nil, inputErr("", "%s: item %d (line %d) is a list or an object: Kubernetes takes strings", what, len(items)+1, line)
		case v[0] == '|' || v[0] == '>':
			block = true
			v = ""
		case v[0] == '"' || v[0] == '\'':
			s, _, err := quoted(v, 0, line, what)
			if err != nil {
				return nil, err
			}
			v = s
		default:
			if c := strings.Index(v, " #"); c >= 0 {
				v = strings.TrimSpace(v[:c])
			}
		}
		items = append(items, v)
	}
	if len(items) == 0 {
		return nil, inputErr("", "%s has no items: write the list below it, one \"- item\" a line, or as [\"--context-length\", \"1048576\", …]", what)
	}
	for i := range items {
		items[i] = strings.TrimSpace(items[i])
	}
	return items, nil
}

// flowList reads a [ … ] list at t[off]: JSON strings, single-quoted or
// plain scalars, split by commas, over as many lines as it takes. line is
// the [ 's, for messages; end is just past the ].
func flowList(t string, off, line int, what string) (items []string, end int, err error) {
	i := off + 1
	for {
		for i < len(t) && strings.IndexByte(" \t\r\n", t[i]) >= 0 {
			i++
		}
		if i >= len(t) {
			return nil, 0, inputErr("", "%s: the [ on line %d is not closed by a ]", what, line)
		}
		n := len(items) + 1
		var item string
		switch c := t[i]; {
		case c == ']' && n == 1:
			return nil, 0, inputErr("", "%s is an empty list: it holds no launch", what)
		case c == ']':
			return items, i + 1, nil // YAML allows a trailing comma
		case c == '"' || c == '\'':
			item, i, err = quoted(t, i, line, what)
			if err != nil {
				return nil, 0, err
			}
		case c == '[' || c == '{':
			return nil, 0, inputErr("", "%s: item %d is a list or an object: Kubernetes takes strings", what, n)
		case c == ',':
			return nil, 0, inputErr("", "%s: item %d is empty (two commas, or a comma after the [)", what, n)
		default:
			j := i
			for j < len(t) && strings.IndexByte(",]\n", t[j]) < 0 {
				j++
			}
			item, i = strings.TrimSpace(t[i:j]), j
		}
		items = append(items, item)
		for i < len(t) && strings.IndexByte(" \t\r\n", t[i]) >= 0 {
			i++
		}
		switch {
		case i >= len(t):
			return nil, 0, inputErr("", "%s: the [ on line %d is not closed by a ]", what, line)
		case t[i] == ',':
			i++
		case t[i] != ']':
			return nil, 0, inputErr("", "%s: item %d is followed by %q where a comma or ] belongs", what, n, clip(t[i:min(len(t), i+10)]))
		}
	}
}

// quoted reads a quoted scalar at t[i]: "…" as JSON reads it, '…' with a
// doubled ' for a quote. It returns the text and the offset just past the quote.
func quoted(t string, i, line int, what string) (string, int, error) {
	q := t[i]
	for j := i + 1; j < len(t); j++ {
		switch {
		case q == '"' && t[j] == '\\':
			j++
		case t[j] == q && q == '\'' && j+1 < len(t) && t[j+1] == '\'':
			j++
		case t[j] == q:
			if q == '\'' {
				return strings.ReplaceAll(t[i+1:j], "''", "'"), j + 1, nil
			}
			var s string
			if err := jsonlite.Unmarshal([]byte(t[i:j+1]), &s); err != nil {
				return "", 0, inputErr("", "%s: the string on line %d is not quoted as JSON quotes it: %v", what, line, err)
			}
			return s, j + 1, nil
		}
	}
	return "", 0, inputErr("", "%s: the quote (%c) on line %d is not closed", what, q, line)
}
