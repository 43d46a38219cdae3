/** The analysis tab's charts, in their own chunk (React.lazy): recharts loads only when the tab is opened. */
import {
  Area,
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  ComposedChart,
  Legend,
  Line,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";

const PIE_COLORS = ["#1f6feb", "#1a7f4b", "#e2b007", "#c62f3c", "#8250df", "#5b6578"];

export default function ProfileCharts(props: {
  trend: { day: string; wpm: number; accuracy: number }[];
  hours: { hour: string; games: number }[];
  rooms: { room: string; games: number }[];
}) {
  return (
    <div className="profile-charts">
      <figure className="profile-card" aria-label="최근 성과 추이">
        <figcaption>최근 성과 추이 (데이터가 있는 최근 14일)</figcaption>
        <ResponsiveContainer width="100%" height={240}>
          {/* Two axes: speed (~100–1000 타/분) on the left, accuracy on its own 0–100 % on the right; on one shared
              axis accuracy was a flat line at the bottom. */}
          <ComposedChart data={props.trend} margin={{ top: 8, right: 0, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e1e6ef" />
            <XAxis dataKey="day" tick={{ fontSize: 12 }} />
            <YAxis yAxisId="wpm" width={44} tick={{ fontSize: 12 }} />
            <YAxis
              yAxisId="accuracy"
              orientation="right"
              domain={[0, 100]}
              ticks={[0, 25, 50, 75, 100]}
              unit="%"
              width={48}
              tick={{ fontSize: 12 }}
            />
            <Tooltip />
            <Legend />
            <Area
              yAxisId="wpm"
              dataKey="wpm"
              name="평균 속도"
              unit="타/분"
              stroke="#1f6feb"
              fill="#e8f0fe"
              isAnimationActive={false}
            />
            {/* A line, not an area: filled up to ~97 % it would cover the speed. */}
            <Line
              yAxisId="accuracy"
              dataKey="accuracy"
              name="평균 정확도"
              unit="%"
              stroke="#1a7f4b"
              strokeWidth={2}
              dot={{ r: 3 }}
              isAnimationActive={false}
            />
          </ComposedChart>
        </ResponsiveContainer>
      </figure>
      <figure className="profile-card" aria-label="시간대별 게임 수">
        <figcaption>시간대별 게임 수</figcaption>
        <ResponsiveContainer width="100%" height={220}>
          <BarChart data={props.hours} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e1e6ef" />
            <XAxis dataKey="hour" tick={{ fontSize: 11 }} interval={2} />
            <YAxis allowDecimals={false} tick={{ fontSize: 12 }} />
            <Tooltip />
            <Bar dataKey="games" name="게임 수" fill="#1f6feb" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </figure>
      <figure className="profile-card" aria-label="방별 게임 수">
        <figcaption>방별 게임 수</figcaption>
        <ResponsiveContainer width="100%" height={240}>
          <PieChart>
            <Pie data={props.rooms} dataKey="games" nameKey="room" outerRadius={80} isAnimationActive={false} label>
              {props.rooms.map((room, index) => (
                <Cell key={room.room} fill={PIE_COLORS[index % PIE_COLORS.length]} />
              ))}
            </Pie>
            <Tooltip />
            <Legend />
          </PieChart>
        </ResponsiveContainer>
      </figure>
    </div>
  );
}
