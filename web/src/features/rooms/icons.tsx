/**
 * Small inline icons (stroke icons on a 24-px grid). SVG rather than emoji: emoji fonts are missing on many
 * Linux desktops and kiosks, where 🥇 or 👥 would show as empty boxes.
 */
import type { ReactNode } from "react";

function Svg({ children, className, label }: { children: ReactNode; className?: string; label?: string }) {
  return (
    <svg
      className={`icon${className ? ` ${className}` : ""}`}
      viewBox="0 0 24 24"
      width="1em"
      height="1em"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      role={label ? "img" : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    >
      {label && <title>{label}</title>}
      {children}
    </svg>
  );
}

type IconProps = { className?: string; label?: string };

export const UsersIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="9" cy="8" r="3.5" />
    <path d="M2.5 20c0-3.6 2.9-6 6.5-6s6.5 2.4 6.5 6" />
    <path d="M16 4.6a3.5 3.5 0 0 1 0 6.8M18 14.3c2.1.7 3.5 2.8 3.5 5.7" />
  </Svg>
);

export const BoltIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M13 2 4 14h7l-1 8 9-12h-7l1-8Z" fill="currentColor" strokeWidth="1.5" />
  </Svg>
);

export const TargetIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="12" cy="12" r="9" />
    <circle cx="12" cy="12" r="5" />
    <circle cx="12" cy="12" r="1.5" fill="currentColor" />
  </Svg>
);

export const FlameIcon = (p: IconProps) => (
  <Svg {...p}>
    <path
      d="M12 22c4 0 7-2.7 7-6.8 0-3.9-2.6-6.3-4.3-8.7-.5 2-1.6 3.2-2.8 3.6.3-3.2-1-6.3-3.9-8.1.2 3.4-1.6 5.4-3 7.3C3.9 11.1 5 13.2 5 15.2 5 19.3 8 22 12 22Z"
      fill="currentColor"
      strokeWidth="1.5"
    />
  </Svg>
);

export const BulbIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M9 18h6M10 21.5h4" />
    <path d="M12 2.5a6.5 6.5 0 0 0-4 11.6c.6.5 1 1.2 1 2V16h6v-.1c0-.7.4-1.4 1-1.9A6.5 6.5 0 0 0 12 2.5Z" />
  </Svg>
);

export const FlagIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M5 21V4" />
    <path d="M5 4h11l-2 4 2 4H5" fill="currentColor" fillOpacity="0.15" />
  </Svg>
);

export const SearchIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-3.5-3.5" />
  </Svg>
);

export const DoorIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M4 21h16M6 21V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v17" />
    <circle cx="14.5" cy="12" r="1" fill="currentColor" />
  </Svg>
);

/** Medals are shared with the rankings and the navbar (`ui/medals.tsx`). */
export { MedalBadge } from "../../ui/medals";
