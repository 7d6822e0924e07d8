// Command requestpath measures the server CPU of the request path (issue 24
// item 11): it builds a base commit (default 43c6996, main before the
// request-body cache) with `git worktree` and this tree, and runs the same
// scripted sessions of 12 and 300 turns through each binary's LSP face, as
// interleaved A/B pairs (A B A B …, so a busy machine slows both alike),
// against a fake OpenAI-compatible endpoint on 127.0.0.1. Each turn asks
// the model for three read-only tool calls, then for the answer; the fake
// answers at once, so what is measured is the server's own work.
//
// It prints the server process's CPU time per turn (user + system, from
// /proc/PID/task/*/schedstat, in nanoseconds) at turns 1, 12, 60 and 300 —
// each the median over the pairs of the mean over the turns ending there (1,
// 8–12, 56–60, 296–300) — for A and B and the ratio B/A (the goal: at most
// 0.5). It prints; it asserts nothing.
//
//	go run ./bench/requestpath [-pairs 10] [-sessions 12,300] [-base 43c6996]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
)

// settle is -settle; workspaceSettle is how long it waits (the checkpoint
// store's racy window, 2 s, and a margin).
var settle bool

const workspaceSettle = 2100 * time.Millisecond

func main() {
	pairs := flag.Int("pairs", 10, "A/B pairs per session length")
	sessions := flag.String("sessions", "12,300", "session lengths in turns, comma-separated")
	base := flag.String("base", "43c6996", "commit A is built from")
	oldBin := flag.String("old-bin", "", "binary A (default: built from -base)")
	newBin := flag.String("new-bin", "", "binary B (default: built from this tree)")
	window := flag.Int("window", 128000, "model.context_window (tokens)")
	perTurn := flag.Bool("per-turn", false, "also print the median CPU of every turn (for finding spikes)")
	warmup := flag.Bool("warmup", false, "run a one-turn session in each process before the measured one (turn 1 then shows a new session's cost without a new process's)")
	flag.BoolVar(&settle, "settle", true, "wait out the checkpoint store's racy window after writing the workspace (false: the first sessions hash every file every turn)")
	marksFile := flag.String("marks", "", "write each turn's bounds on CLOCK_MONOTONIC to this file (\"pid turn start_ns end_ns\"), to split a `perf record -k CLOCK_MONOTONIC` profile")
	flag.Parse()
	if *marksFile != "" {
		f, err := os.Create(*marksFile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "requestpath: -marks:", err)
			os.Exit(2)
		}
		defer f.Close()
		turnMarks.w = f
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	var lengths []int
	for _, s := range strings.Split(*sessions, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "requestpath: -sessions %q: want positive turn counts\n", *sessions)
			os.Exit(2)
		}
		lengths = append(lengths, n)
	}
	if err := run(*pairs, lengths, *base, *oldBin, *newBin, *window, *perTurn, *warmup); err != nil {
		fmt.Fprintln(os.Stderr, "requestpath:", err)
		os.Exit(1)
	}
}

func run(pairs int, lengths []int, base, oldBin, newBin string, window int, perTurn, warmup bool) error {
	tmp, err := os.MkdirTemp("", "requestpath-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	nameA := base
	if oldBin == "" {
		if oldBin, err = buildAt(tmp, base); err != nil {
			return err
		}
	} else {
		nameA = oldBin
	}
	nameB := "this tree"
	if newBin == "" {
		if newBin, err = buildHere(tmp); err != nil {
			return err
		}
	} else {
		nameB = newBin
	}
	ws, err := makeWorkspace(tmp)
	if err != nil {
		return err
	}
	if settle {
		// A file written in the last two seconds is hashed again at every
		// checkpoint (checkpoint's racy window): without this wait the
		// sessions of the run's first two seconds would hash the whole
		// workspace every turn and the later ones would not, unlike a
		// workspace at rest.
		time.Sleep(workspaceSettle)
	}
	ctx := context.Background()
	fmt.Printf("load before: %s\n", loadAverage())
	fmt.Printf("A = %s, B = %s; %d interleaved pairs per session length; context window %d tokens\n",
		nameA, nameB, pairs, window)
	if warmup {
		fmt.Println("each measured session follows a one-turn session in the same process (-warmup)")
	}
	fmt.Println("server CPU per turn in ms: median over the pairs of the mean over the turns ending at the one shown")
	fmt.Printf("%8s %6s %10s %10s %8s\n", "session", "turn", "A ms", "B ms", "B/A")
	for _, n := range lengths {
		var a, b [][]time.Duration // per pair, CPU per turn
		var startA, startB, rssA, rssB, faultsA, faultsB []time.Duration
		start := time.Now()
		for p := range pairs {
			for i, bin := range []string{oldBin, newBin} {
				r, err := runSession(ctx, bin, ws, tmp, n, window, warmup)
				if err != nil {
					return fmt.Errorf("%d-turn session, pair %d, %s: %w", n, p+1, []string{"A", "B"}[i], err)
				}
				if i == 0 {
					a, startA, rssA = append(a, r.turns), append(startA, r.start), append(rssA, time.Duration(r.peakRSS))
					faultsA = append(faultsA, time.Duration(r.faults))
				} else {
					b, startB, rssB = append(b, r.turns), append(startB, r.start), append(rssB, time.Duration(r.peakRSS))
					faultsB = append(faultsB, time.Duration(r.faults))
				}
			}
		}
		for _, t := range []int{1, 12, 60, 300} {
			if t > n {
				continue
			}
			am, bm := atTurn(a, t), atTurn(b, t)
			fmt.Printf("%8d %6d %10.2f %10.2f %8.2f\n", n, t, ms(am), ms(bm), float64(bm)/float64(max(am, 1)))
		}
		if perTurn {
			for t := 1; t <= n; t++ {
				am, bm := nthMedian(a, t), nthMedian(b, t)
				fmt.Printf("%8d %6d %10.2f %10.2f %8.2f   (this turn alone)\n", n, t, ms(am), ms(bm), float64(bm)/float64(max(am, 1)))
			}
		}
		at, bt := total(a), total(b)
		fmt.Printf("%8d %6s %10.1f %10.1f %8.2f   (whole session, median; %s wall for the pairs)\n", n, "all", ms(at), ms(bt),
			float64(bt)/float64(max(at, 1)), time.Since(start).Round(time.Second))
		sa, sb := median(startA), median(startB)
		fmt.Printf("%8d %6s %10.1f %10.1f %8.2f   (start: exec to the session's creation, median)\n", n, "start", ms(sa), ms(sb), float64(sb)/float64(max(sa, 1)))
		ra, rb := median(rssA), median(rssB)
		fmt.Printf("%8d %6s %10.1f %10.1f %8.2f   (peak RSS in MB, median)\n", n, "rss", float64(ra)/(1<<20), float64(rb)/(1<<20), float64(rb)/float64(max(ra, 1)))
		fa, fb := float64(median(faultsA))/float64(n), float64(median(faultsB))/float64(n)
		fmt.Printf("%8d %6s %10.0f %10.0f %8.2f   (minor page faults per turn, median)\n", n, "faults", fa, fb, fb/max(fa, 1))
	}
	fmt.Printf("load after: %s\n", loadAverage())
	return nil
}

// atTurn is the median over pairs of the mean CPU of the turns t-4..t
// (turn 1 alone for t = 1).
func atTurn(runs [][]time.Duration, t int) time.Duration {
	var per []time.Duration
	for _, r := range runs {
		from := max(1, t-4)
		if t == 1 {
			from = 1
		}
		var sum time.Duration
		for i := from; i <= t; i++ {
			sum += r[i-1]
		}
		per = append(per, sum/time.Duration(t-from+1))
	}
	return median(per)
}

// nthMedian is the median over pairs of turn t's CPU.
func nthMedian(runs [][]time.Duration, t int) time.Duration {
	var per []time.Duration
	for _, r := range runs {
		per = append(per, r[t-1])
	}
	return median(per)
}

// total is the median over pairs of a whole session's CPU.
func total(runs [][]time.Duration) time.Duration {
	var per []time.Duration
	for _, r := range runs {
		var sum time.Duration
		for _, d := range r {
			sum += d
		}
		per = append(per, sum)
	}
	return median(per)
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// loadAverage is the machine's load (uptime's numbers), for the report.
func loadAverage() string {
	out, err := exec.Command("uptime").Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}
