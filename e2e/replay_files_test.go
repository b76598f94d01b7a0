package e2e

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/replay"
)

// hostileLog is the demo's leak three times over, among tenants whose
// names a spreadsheet would run, quote or split.
const hostileLog = "t,tenant,prompt_tokens,output_tokens\n" +
	"0,\"=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",120,4\n" +
	"1,@SUM(A1),125,4\n" +
	"2,\"a, \"\"b\"\"\",120,4\n" +
	"3,-1+2,125,4\n" +
	"4,+cmd,125,4\n"

// kvleakReplay runs the command as a terminal would and returns its two
// files.
func kvleakReplay(t *testing.T, log string, args ...string) (pairs, tenants string) {
	t.Helper()
	dir := t.TempDir()
	logFile := filepath.Join(dir, "log.csv")
	require.NoError(t, os.WriteFile(logFile, []byte(log), 0o644))
	p, tn := filepath.Join(dir, "pairs.csv"), filepath.Join(dir, "tenants.csv")
	bin := filepath.Join(dir, "kvleak")
	build := exec.Command("go", "build", "-o", bin, "./cmd/kvleak")
	build.Dir = repoRoot(t)
	out, err := build.CombinedOutput()
	require.NoError(t, err, string(out))
	out, err = exec.Command(bin, append(append([]string{"replay"}, args...), "-pairs", p, "-tenants", tn, logFile)...).CombinedOutput()
	var exit *exec.ExitError
	require.True(t, err == nil || errors.As(err, &exit) && exit.ExitCode() == 1, "%v: %s", err, out)
	pb, err := os.ReadFile(p)
	require.NoError(t, err)
	tb, err := os.ReadFile(tn)
	require.NoError(t, err)
	return string(pb), string(tb)
}

// downloadReplayFiles presses both download buttons and returns the files.
func downloadReplayFiles(b *browser, downloads string) (pairs, tenants string) {
	b.t.Helper()
	clickSel(b, "#replay-pairs-csv")
	pairs = string(waitForDownload(b.t, filepath.Join(downloads, "kvleak-pairs.csv")))
	clickSel(b, "#replay-tenants-csv")
	tenants = string(waitForDownload(b.t, filepath.Join(downloads, "kvleak-tenants.csv")))
	return pairs, tenants
}

// After a replay the page downloads the files kvleak replay -pairs and
// -tenants write for the same log and settings, byte for byte: hostile
// tenant names quoted and written as text.
func TestReplayDownloadsAreTheCommands(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	b.Open(serveSite(t) + "?" + demoQuery)
	downloads := acceptDownloads(b)
	assert.Zero(t, countAll(b, "#replay-pairs-csv"), "no files before a replay")
	setValueOnly(b, "#replay-text", hostileLog)
	runReplay(b, uiTimeout)
	pairs, tenants := downloadReplayFiles(b, downloads)

	wantPairs, wantTenants := kvleakReplay(t, hostileLog, "-link", demoQuery)
	assert.Equal(t, wantPairs, pairs)
	assert.Equal(t, wantTenants, tenants)
	assert.True(t, strings.HasPrefix(pairs, replay.PairsHeader+"\r\n"), pairs)
	assert.True(t, strings.HasPrefix(tenants, replay.TenantsHeader+"\r\n"), tenants)
	assert.Contains(t, pairs, `"'=HYPERLINK(""http://x"",""y"")","'@SUM(A1)",3,1,7,119,1`)
	assert.Contains(t, pairs, `"a, ""b""","'-1+2",5,3,7,119,1`)
	assert.Contains(t, textOf(b, "#replay-pairs"), `=HYPERLINK("http://x","y") → @SUM(A1)`, "the page shows the names as text")

	// Through two instances, round-robin: the field is the command's
	// -instances, and each listed leak names its instance.
	setField(b, "#replay-instances", "2")
	runReplay(b, uiTimeout)
	assert.Contains(t, textOf(b, "#replay-pairs"), "(on instance 1)")
	pairs, _ = downloadReplayFiles(b, acceptDownloads(b))
	wantPairs, _ = kvleakReplay(t, hostileLog, "-link", demoQuery, "-instances", "2")
	assert.Equal(t, wantPairs, pairs)
}

// With two servers' info in the Deploy check, the Replay panel offers to
// replay at their settings, says which, and replays there: the numbers and
// the files are those of kvleak replay -prefill -decode on the same files.
func TestReplayAtTheDeployChecksServers(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	downloads := acceptDownloads(b)
	assert.Zero(t, countAll(b, "#replay-from-deploy"), "nothing to offer before a check")
	pasteDeploy(b, deployFixture(t, "glm-launch/prefill.json"), deployFixture(t, "glm-launch/decode.json"))
	waitFor(b, "the offer to replay at the servers' settings", `!!document.querySelector("#replay-from-deploy")`)
	assert.Equal(t, "The Deploy check holds two servers: context 1,048,576, prefill pool 681,280, decode pool 1,048,576 tokens, pages of 1, decode's reserve 512 tokens.",
		textOf(b, "#replay-deploy-settings"))

	log := "t,tenant,prompt_tokens,output_tokens\n0,A,4096,4\n1,D,677177,4\n100,B,900000,4\n"
	setValueOnly(b, "#replay-text", log)
	last := evalJS[string](b, `document.querySelector("#replay-result").dataset.run || "0"`)
	clickSel(b, "#replay-from-deploy")
	waitFor(b, "the replay at the servers' settings", `(r => r.dataset.done === "true" && r.dataset.run !== `+jsLit(last)+`)(document.querySelector("#replay-result"))`, within(uiTimeout))
	assert.Equal(t, replayData{Requests: 3, Leaked: 1, ExposedTenants: 2, FixedLeaked: 0, FixedRejected: 1}, readReplay(b))
	result := textOf(b, "#replay-result")
	assert.Contains(t, result, "Settings: context 1,048,576, prefill pool 681,280, decode pool 1,048,576, page 1 tokens")
	assert.Contains(t, textOf(b, "#replay-notes"), "The settings are the two servers' pasted in the Deploy check: EXPOSED: prompts of 681,274–1,048,569 tokens")

	pairs, tenants := downloadReplayFiles(b, downloads)
	root := repoRoot(t)
	wantPairs, wantTenants := kvleakReplay(t, log, "-prefill", filepath.Join(root, "deploycheck/testdata/glm-launch/prefill.json"),
		"-decode", filepath.Join(root, "deploycheck/testdata/glm-launch/decode.json"))
	assert.Equal(t, wantPairs, pairs)
	assert.Equal(t, wantTenants, tenants)
	assert.Contains(t, pairs, `"D","B",4,100,677177,677177,1`)

	// A check that refuses the boxes takes the offer away.
	pasteDeploy(b, "{}", deployFixture(t, "glm-launch/decode.json"))
	waitFor(b, "the offer gone", `!document.querySelector("#replay-from-deploy")`)
}
