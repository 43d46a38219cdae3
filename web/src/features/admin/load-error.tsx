/** A failed load: the Korean message and a retry button. */
export function LoadError({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div className="notice notice-error admin-load-error" role="alert">
      <span>{message}</span>
      {onRetry && (
        <button type="button" className="btn btn-ghost btn-small" onClick={onRetry}>
          다시 시도
        </button>
      )}
    </div>
  );
}
