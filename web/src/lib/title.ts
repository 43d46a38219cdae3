import { useEffect } from "react";

export const PRODUCT_NAME = "타자마당";

/** Sets document.title to "<page> | 타자마당" (the product name alone for the home page) while mounted. */
export function useDocumentTitle(page: string | null) {
  useEffect(() => {
    document.title = page ? `${page} | ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [page]);
}
