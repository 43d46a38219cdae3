import { useEffect, useState } from "react";
import { api } from "../../lib/api";

/** The server's `GET /api/config`: settings of this deployment the web app needs (EXTERNAL_CHAT_URL). */
export interface SiteConfig {
  external_chat_url: string | null;
}

const NONE: SiteConfig = { external_chat_url: null };
let loading: Promise<SiteConfig> | null = null;
let loaded: SiteConfig | null = null;

/** Read once per page load; a failed read counts as "nothing set" (the optional links stay hidden) and is retried next time. */
function loadSiteConfig(): Promise<SiteConfig> {
  loading ??= api
    .get<SiteConfig>("/api/config", { auth: false })
    .then((config) => {
      loaded = { external_chat_url: typeof config.external_chat_url === "string" ? config.external_chat_url : null };
      return loaded;
    })
    .catch(() => {
      loading = null;
      return NONE;
    });
  return loading;
}

export function useSiteConfig(): SiteConfig {
  const [config, setConfig] = useState<SiteConfig>(loaded ?? NONE);
  useEffect(() => {
    let live = true;
    loadSiteConfig().then((next) => live && setConfig(next));
    return () => {
      live = false;
    };
  }, []);
  return config;
}
