/**
 * Peak memory of the current process: RSS sampled on a timer (so a short spike between two
 * samples can be missed) and the kernel's own high-water mark from resourceUsage().maxRSS,
 * which cannot miss one. The report gives both; the larger is the peak.
 */
export interface MemoryReport {
  baselineRssMb: number;
  peakSampledRssMb: number;
  maxRssMb: number;
  peakRssMb: number;
  samples: { atMs: number; rssMb: number }[];
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

export function sampleMemory(everyMs = 50, keepEveryMs = 1_000) {
  const started = performance.now();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  let lastKept = -Infinity;
  const samples: MemoryReport['samples'] = [];
  const timer = setInterval(() => {
    const rss = process.memoryUsage.rss();
    if (rss > peak) peak = rss;
    const at = performance.now() - started;
    if (at - lastKept >= keepEveryMs) {
      lastKept = at;
      samples.push({ atMs: Math.round(at), rssMb: mb(rss) });
    }
  }, everyMs);
  timer.unref();
  return {
    stop(): MemoryReport {
      clearInterval(timer);
      const rss = process.memoryUsage.rss();
      if (rss > peak) peak = rss;
      // maxRSS is in kilobytes on Linux.
      const maxRss = process.resourceUsage().maxRSS * 1024;
      return { baselineRssMb: mb(baseline), peakSampledRssMb: mb(peak), maxRssMb: mb(maxRss), peakRssMb: mb(Math.max(peak, maxRss)), samples };
    },
  };
}
