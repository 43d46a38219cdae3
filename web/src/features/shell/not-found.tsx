import { Link } from "@tanstack/react-router";
import { useDocumentTitle } from "../../lib/title";

export function NotFoundPage() {
  useDocumentTitle("페이지를 찾을 수 없음");
  return (
    <section className="page page-narrow not-found">
      <p className="not-found-code" aria-hidden="true">
        404
      </p>
      <h1 className="page-title">페이지를 찾을 수 없습니다.</h1>
      <p className="muted">주소가 바뀌었거나 없는 페이지입니다. 주소를 다시 확인해주세요.</p>
      <Link to="/" className="btn btn-primary">
        홈으로 가기
      </Link>
    </section>
  );
}
