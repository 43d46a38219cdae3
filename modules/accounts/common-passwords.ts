import list from "./data/common-passwords.txt" with { type: "text" };

/** The shipped list of the 10,000 most common passwords (see the file header for its source and licence). */
const COMMON = new Set(
  list
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#")),
);

export const commonPasswordCount = () => COMMON.size;
export const isCommonPassword = (password: string) => COMMON.has(password.toLowerCase());
