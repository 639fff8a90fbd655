/**
 * A uPlot chart (Canvas; loaded on first use, so the board itself never waits for it) with
 * its text summary beside it: the picture for the eye, the same facts in words for everyone.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type uPlot from 'uplot';

export type ChartSpec = (lib: typeof uPlot) => {
  options: Omit<uPlot.Options, 'width' | 'height'>;
  data: uPlot.AlignedData;
};

/** Lines and marks in an order that reads on light and dark backgrounds and tells books apart without colour alone (dashes). */
export const COLORS = ['#2f6fdf', '#d9480f', '#2b8a3e', '#862e9c', '#5c677d'];

export function Chart({
  spec,
  label,
  summary,
  height = 260,
  id,
}: {
  spec: ChartSpec | null;
  label: string;
  summary: ComponentChildren;
  height?: number;
  id: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  useEffect(() => {
    if (!spec || !box.current) return;
    let stopped = false;
    void import('uplot').then(({ default: UPlot }) => {
      if (stopped || !box.current) return;
      const { options, data } = spec(UPlot);
      const width = Math.max(320, box.current.clientWidth);
      if (plot.current) {
        plot.current.destroy();
        plot.current = null;
      }
      plot.current = new UPlot({ ...options, width, height }, data, box.current);
      // The canvas is a picture with a name; the figure's caption says what it shows in words.
      const canvas = box.current.querySelector('canvas');
      canvas?.setAttribute('role', 'img');
      canvas?.setAttribute('aria-label', label);
      box.current.dataset.series = String(options.series.length - 1);
    });
    return () => {
      stopped = true;
    };
  }, [spec]);
  useEffect(
    () => () => {
      plot.current?.destroy();
      plot.current = null;
    },
    [],
  );
  return (
    <figure class="chart" aria-labelledby={`${id}-caption`}>
      <div class="plot" ref={box} />
      <figcaption id={`${id}-caption`}>{summary}</figcaption>
    </figure>
  );
}
