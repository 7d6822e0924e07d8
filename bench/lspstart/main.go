// Command lspstart measures the agentls binary as an editor sees it: the time
// from starting the process to the initialize result, and the resident memory
// of the idle server afterwards. It prints the numbers beside the targets.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

func main() {
	bin := flag.String("bin", "agentls", "agentls binary")
	runs := flag.Int("runs", 20, "number of starts")
	flag.Parse()
	dir, err := os.MkdirTemp("", "lspstart-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	var starts []time.Duration
	var rss []int
	for i := 0; i < *runs; i++ {
		d, kb, err := once(*bin, dir)
		if err != nil {
			fail(err)
		}
		starts = append(starts, d)
		rss = append(rss, kb)
	}
	sort.Slice(starts, func(i, j int) bool { return starts[i] < starts[j] })
	sort.Ints(rss)
	fmt.Printf("%-34s %12s %12s\n", "measure ("+strconv.Itoa(*runs)+" runs)", "agentls", "target")
	fmt.Printf("%-34s %12s %12s\n", "start → initialize result (median)", starts[len(starts)/2].Round(10*time.Microsecond), "< 20ms")
	fmt.Printf("%-34s %12s %12s\n", "start → initialize result (max)", starts[len(starts)-1].Round(10*time.Microsecond), "")
	fmt.Printf("%-34s %9.1f MB %12s\n", "idle RSS after initialize (median)", float64(rss[len(rss)/2])/1024, "< 30 MB")
}

func once(bin, dir string) (time.Duration, int, error) {
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "OPENAI_API_KEY=bench-key-not-used")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return 0, 0, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, 0, err
	}
	cmd.Stderr = io.Discard
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file://%s","capabilities":{}}}`, filepath.ToSlash(dir))
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	fmt.Fprintf(stdin, "Content-Length: %d\r\n\r\n%s", len(body), body)
	r := bufio.NewReader(stdout)
	hdr, err := textproto.NewReader(r).ReadMIMEHeader()
	if err != nil {
		return 0, 0, fmt.Errorf("read initialize result: %w", err)
	}
	n, _ := strconv.Atoi(hdr.Get("Content-Length"))
	if _, err := io.ReadFull(r, make([]byte, n)); err != nil {
		return 0, 0, err
	}
	elapsed := time.Since(begin)
	time.Sleep(200 * time.Millisecond) // let it settle into idle before reading its memory
	kb := rssKB(cmd.Process.Pid)
	stdin.Close()
	_ = cmd.Wait()
	return elapsed, kb, nil
}

// rssKB reads VmRSS from /proc (Linux).
func rssKB(pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.Atoi(f[1])
			return kb
		}
	}
	return 0
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "lspstart:", err)
	os.Exit(1)
}
