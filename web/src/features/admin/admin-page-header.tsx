import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";

/** The head of a console page opened from the dashboard: the way back, the title, and what the page is for. */
export function AdminPageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <>
      <Link to="/admin/dashboard" className="admin-back">
        ← 대시보드로 돌아가기
      </Link>
      <header className="admin-header">
        <h1 className="page-title">{title}</h1>
        {children}
      </header>
    </>
  );
}
