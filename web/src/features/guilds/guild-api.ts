/** The guild HTTP calls (modules/guilds README "Routes"), through the app's one HTTP client. */
import { api } from "../../lib/api";
import type {
  Application,
  Guild,
  GuildComment,
  GuildMember,
  GuildPost,
  MyGuild,
  Paged,
  RecruitmentPost,
  Standing,
} from "./types";

const base = "/api/guilds";

export const GUILD_LIST_SIZE = 20;
export const RECRUITMENT_SIZE = 20;

export const guildApi = {
  list: (page: number, q: string, signal?: AbortSignal) =>
    api.get<Paged<Guild>>(`${base}`, { query: { page, size: GUILD_LIST_SIZE, q: q || undefined }, signal }),
  create: (name: string, description: string) => api.post<Guild>(`${base}`, { name, description }),
  get: (id: number, signal?: AbortSignal) => api.get<Guild>(`${base}/${id}`, { signal }),
  my: (signal?: AbortSignal) => api.get<MyGuild>(`${base}/my`, { signal }),
  standing: (id: number, signal?: AbortSignal) => api.get<Standing>(`${base}/${id}/members/me`, { signal }),
  leave: (id: number) => api.post<{ detail: string }>(`${base}/${id}/leave`),
  disband: (id: number) => api.delete<{ detail: string }>(`${base}/${id}`),
  accept: (invitationId: number) => api.post<Guild>(`${base}/invitations/${invitationId}/accept`),
  decline: (invitationId: number) => api.post<{ detail: string }>(`${base}/invitations/${invitationId}/decline`),

  recruitment: (page: number, signal?: AbortSignal) =>
    api.get<Paged<RecruitmentPost>>(`${base}/recruitment`, { query: { page, size: RECRUITMENT_SIZE }, signal }),
  recruitmentPost: (id: number, signal?: AbortSignal) =>
    api.get<RecruitmentPost>(`${base}/recruitment/${id}`, { signal }),
  viewRecruitment: (id: number) =>
    api.post<{ id: number; view_count: number; counted: boolean }>(`${base}/recruitment/${id}/view`),
  writeRecruitment: (input: { guild_id: number; title: string; content: string }) =>
    api.post<RecruitmentPost>(`${base}/recruitment`, input),
  apply: (postId: number, message: string) => api.post<Application>(`${base}/recruitment/${postId}/apply`, { message }),
  applications: (guildId: number, signal?: AbortSignal) =>
    api.get<Application[]>(`${base}/${guildId}/applications`, { query: { status: "pending" }, signal }),
  approve: (guildId: number, applicationId: number) =>
    api.post<GuildMember>(`${base}/${guildId}/applications/${applicationId}/approve`),
  reject: (guildId: number, applicationId: number) =>
    api.post<{ detail: string }>(`${base}/${guildId}/applications/${applicationId}/reject`),

  board: (guildId: number, signal?: AbortSignal) => api.get<GuildPost[]>(`${base}/${guildId}/board`, { signal }),
  post: (guildId: number, postId: number, signal?: AbortSignal) =>
    api.get<GuildPost>(`${base}/${guildId}/board/${postId}`, { signal }),
  writePost: (guildId: number, input: { title: string; content: string }) =>
    api.post<GuildPost>(`${base}/${guildId}/board`, input),
  editPost: (guildId: number, postId: number, input: { title: string; content: string }) =>
    api.put<GuildPost>(`${base}/${guildId}/board/${postId}`, input),
  removePost: (guildId: number, postId: number) => api.delete(`${base}/${guildId}/board/${postId}`),
  comments: (guildId: number, postId: number, signal?: AbortSignal) =>
    api.get<GuildComment[]>(`${base}/${guildId}/board/${postId}/comments`, { signal }),
  addComment: (guildId: number, postId: number, content: string) =>
    api.post<GuildComment>(`${base}/${guildId}/board/${postId}/comments`, { content }),
  removeComment: (guildId: number, postId: number, commentId: number) =>
    api.delete(`${base}/${guildId}/board/${postId}/comments/${commentId}`),
};
