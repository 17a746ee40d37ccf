package traffic

import (
	"math"
	"testing"
)

func TestHistogramEncodeDecode(t *testing.T) {
	h := fromCumulative(map[float64]float64{0.1: 10, 0.3: 15, 1.2: 15, 5: 16, math.Inf(1): 17})
	got := h.encode()
	if want := "0.1:10 0.3:5 5:1 +Inf:1"; got != want {
		t.Fatalf("encode = %q, want %q", got, want)
	}
	back := hist{}
	decodeInto(back, got)
	decodeInto(back, "0.1:2 junk 0.3:x :4 NaN:3 0.3:-1")
	if back[0.1] != 12 || back[0.3] != 5 || back[math.Inf(1)] != 1 || back.count() != 19 {
		t.Fatalf("decoded %v", back)
	}
	if hist(nil).encode() != "" {
		t.Fatal("an empty histogram encodes to text")
	}
}

func TestHistogramQuantile(t *testing.T) {
	h := hist{0.1: 100} // 100 requests under 100 ms
	for _, c := range []struct {
		q, want float64
	}{{0.5, 0.05}, {0.95, 0.095}, {0.99, 0.099}} {
		if got, ok := h.quantile(c.q); !ok || math.Abs(got-c.want) > 1e-9 {
			t.Errorf("q%v = %v, want %v", c.q, got, c.want)
		}
	}
	h = hist{0.1: 50, 0.3: 50}
	if got, _ := h.quantile(0.75); math.Abs(got-0.2) > 1e-9 {
		t.Errorf("q0.75 = %v, want 0.2", got)
	}
	h = hist{0.1: 1, math.Inf(1): 99}
	if got, _ := h.quantile(0.99); got != 0.1 {
		t.Errorf("a quantile in +Inf = %v, want the highest finite bound", got)
	}
	if _, ok := (hist{}).quantile(0.5); ok {
		t.Error("an empty histogram has a quantile")
	}
}

func TestHistogramEncodeBoundsBuckets(t *testing.T) {
	h := hist{}
	for i := range 200 {
		h[float64(i+1)/1000] = 1
	}
	back := hist{}
	decodeInto(back, h.encode())
	if len(back) != maxBuckets || back.count() != 200 {
		t.Fatalf("kept %d buckets holding %v, want %d holding 200", len(back), back.count(), maxBuckets)
	}
}

func FuzzDecodeHistogram(f *testing.F) {
	for _, s := range []string{"", "0.1:10 +Inf:2", "1e-3:4", "x:y", " : ", "0.1:1e308 0.1:1e308"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h := hist{}
		decodeInto(h, s)
		for b, n := range h {
			if math.IsNaN(b) || n <= 0 {
				t.Fatalf("decoded bucket %v:%v", b, n)
			}
		}
		_, _ = h.quantile(0.99)
		_ = h.encode()
	})
}
