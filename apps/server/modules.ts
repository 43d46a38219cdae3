import { accountsModule } from "../../modules/accounts";

/**
 * THE list of modules, in any order (dependencies are sorted at boot). Explicit imports keep route types and
 * make a missing module a compile error rather than a silent folder-scan miss.
 */
export const modules = [accountsModule] as const;
