/** The red notice above a form or a list: what went wrong, read out at once (`role="alert"`); nothing when empty. */
export function ErrorNotice({ text }: { text: string | null | undefined }) {
  if (!text) return null;
  return (
    <p className="notice notice-error" role="alert">
      {text}
    </p>
  );
}
