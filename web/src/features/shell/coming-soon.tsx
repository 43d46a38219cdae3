import { Link } from "@tanstack/react-router";
import { useDocumentTitle } from "../../lib/title";

/** Placeholder for pages whose issue has not landed yet; each area replaces its own routes file. */
export function ComingSoon({
  title,
  description,
  home = false,
}: {
  title: string;
  description?: string;
  home?: boolean;
}) {
  // The home page's title is the product name alone.
  useDocumentTitle(home ? null : title);
  return (
    <section className="page page-narrow coming-soon">
      <h1 className="page-title">{title}</h1>
      <p className="muted">{description ?? "이 페이지는 준비 중입니다. 조금만 기다려주세요!"}</p>
      {!home && (
        <Link to="/" className="btn btn-ghost">
          홈으로 가기
        </Link>
      )}
    </section>
  );
}
