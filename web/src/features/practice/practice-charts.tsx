/**
 * The progress charts, in their own chunk (React.lazy, loaded once the panel is on screen): recharts stays out of
 * the practice page's first load. Two y axes each: speed on the left, accuracy (or a jamo's error rate) in % on
 * the right; on one shared axis the percentages would be a flat line at the bottom.
 */
import {
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { Goal } from "./practice-api";
import type { SeriesPoint, UnitDay } from "./practice-progress";

const SPEED = "#1f6feb";
const ACCURACY = "#18774a";
const ERRORS = "#c62f3c";
const shortDay = (day: string) => day.slice(5);
const axisTick = { fontSize: 12 };
const roundUp = (n: number) => Math.ceil(n / 50) * 50;
/** Every line of both charts: a day is a dot, drawn at once (no animation to wait for). */
const LINE = { strokeWidth: 2, dot: { r: 3 }, isAnimationActive: false } as const;
const MARGIN = { top: 12, right: 0, bottom: 0, left: 0 };
/** The right axis of both charts: a percentage. */
const percentAxis = (id: string, from: number, ticks: number[]) => ({
  yAxisId: id,
  orientation: "right" as const,
  domain: [from, 100],
  ticks,
  unit: "%",
  width: 48,
  tick: axisTick,
});

export function SpeedChart({ series, goal }: { series: SeriesPoint[]; goal: Goal }) {
  return (
    <ResponsiveContainer width="100%" height={240}>
      <ComposedChart data={series} margin={MARGIN}>
        <CartesianGrid strokeDasharray="3 3" stroke="#e1e6ef" />
        <XAxis dataKey="day" tickFormatter={shortDay} tick={axisTick} />
        {/* Room above the speed's target, so its line does not lie on the accuracy's near the top. */}
        <YAxis
          yAxisId="wpm"
          width={44}
          tick={axisTick}
          domain={[0, (max: number) => roundUp(Math.max(max, goal.wpm) * 1.3)]}
        />
        <YAxis {...percentAxis("accuracy", 50, [50, 60, 70, 80, 90, 100])} />
        <Tooltip />
        <Legend />
        <ReferenceLine
          yAxisId="wpm"
          y={goal.wpm}
          stroke={SPEED}
          strokeDasharray="6 4"
          label={{ value: `목표 ${goal.wpm}타/분`, position: "insideTopLeft", fill: SPEED, fontSize: 12 }}
        />
        <ReferenceLine
          yAxisId="accuracy"
          y={goal.accuracy}
          stroke={ACCURACY}
          strokeDasharray="6 4"
          label={{ value: `목표 ${goal.accuracy}%`, position: "insideBottomRight", fill: ACCURACY, fontSize: 12 }}
        />
        <Line yAxisId="wpm" dataKey="wpm" name="평균 속도" unit="타/분" stroke={SPEED} {...LINE} />
        <Line yAxisId="accuracy" dataKey="accuracy" name="평균 정확도" unit="%" stroke={ACCURACY} {...LINE} />
      </ComposedChart>
    </ResponsiveContainer>
  );
}

export function UnitChart({ days }: { days: UnitDay[] }) {
  const data = days.map((d) => ({ day: d.day, speed: d.speed, errorRate: Math.round(d.error_rate * 1000) / 10 }));
  return (
    <ResponsiveContainer width="100%" height={220}>
      <ComposedChart data={data} margin={MARGIN}>
        <CartesianGrid strokeDasharray="3 3" stroke="#e1e6ef" />
        <XAxis dataKey="day" tickFormatter={shortDay} tick={axisTick} />
        <YAxis yAxisId="speed" width={44} tick={axisTick} />
        <YAxis {...percentAxis("errors", 0, [0, 25, 50, 75, 100])} />
        <Tooltip />
        <Legend />
        <Line yAxisId="speed" dataKey="speed" name="속도" unit="타/분" stroke={SPEED} {...LINE} connectNulls />
        <Line yAxisId="errors" dataKey="errorRate" name="오타율" unit="%" stroke={ERRORS} {...LINE} />
      </ComposedChart>
    </ResponsiveContainer>
  );
}
