/** The dashboard's chart, in its own chunk (loaded with React.lazy): registrations and games per day. */
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { shortDate } from "./format";
import type { DailyFigure } from "./types";

export default function DailyChart({ daily }: { daily: DailyFigure[] }) {
  const total = daily.reduce((sum, d) => sum + d.registrations + d.games, 0);
  return (
    <figure className="admin-chart" aria-label="최근 30일 일별 가입자 수와 게임 수">
      <ResponsiveContainer width="100%" height={280}>
        <ComposedChart data={daily} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e1e6ef" />
          <XAxis dataKey="date" tickFormatter={shortDate} tick={{ fontSize: 12 }} minTickGap={12} />
          <YAxis allowDecimals={false} tick={{ fontSize: 12 }} />
          <Tooltip labelFormatter={(label) => String(label)} />
          <Legend />
          <Bar dataKey="games" name="게임 수" fill="#1f6feb" radius={[4, 4, 0, 0]} isAnimationActive={false} />
          <Line
            dataKey="registrations"
            name="가입자 수"
            type="monotone"
            stroke="#1a7f4b"
            strokeWidth={2}
            dot={false}
            isAnimationActive={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
      {total === 0 && <figcaption className="muted">최근 30일 동안 가입자와 게임이 없습니다.</figcaption>}
    </figure>
  );
}
