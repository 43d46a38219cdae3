/** The analysis tab's charts, in their own chunk (React.lazy): recharts loads only when the tab is opened. */
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
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
          <AreaChart data={props.trend} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e1e6ef" />
            <XAxis dataKey="day" tick={{ fontSize: 12 }} />
            <YAxis tick={{ fontSize: 12 }} />
            <Tooltip />
            <Legend />
            <Area dataKey="wpm" name="평균 속도" stroke="#1f6feb" fill="#e8f0fe" isAnimationActive={false} />
            <Area dataKey="accuracy" name="평균 정확도" stroke="#1a7f4b" fill="#e6f6ed" isAnimationActive={false} />
          </AreaChart>
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
