CREATE TABLE "guilds_activity" (
	"id" serial PRIMARY KEY NOT NULL,
	"guild_id" integer NOT NULL,
	"kind" text NOT NULL,
	"user_id" integer,
	"actor_id" integer,
	"detail" text DEFAULT '' NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "guilds_applications" (
	"id" serial PRIMARY KEY NOT NULL,
	"guild_id" integer NOT NULL,
	"post_id" integer,
	"user_id" integer NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"decided_at" timestamp (3) with time zone,
	"decided_by" integer
);
--> statement-breakpoint
CREATE TABLE "guilds_board_comments" (
	"id" serial PRIMARY KEY NOT NULL,
	"post_id" integer NOT NULL,
	"author_id" integer NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"deleted_by" integer
);
--> statement-breakpoint
CREATE TABLE "guilds_board_posts" (
	"id" serial PRIMARY KEY NOT NULL,
	"guild_id" integer NOT NULL,
	"author_id" integer NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"comment_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"deleted_by" integer
);
--> statement-breakpoint
CREATE TABLE "guilds_invitations" (
	"id" serial PRIMARY KEY NOT NULL,
	"guild_id" integer NOT NULL,
	"email" text NOT NULL,
	"username" text DEFAULT '' NOT NULL,
	"invited_by" integer NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"responded_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "guilds_members" (
	"id" serial PRIMARY KEY NOT NULL,
	"guild_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" text NOT NULL,
	"joined_at" timestamp (3) with time zone NOT NULL,
	"left_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "guilds_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"guild_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"message" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "guilds_recruitment_posts" (
	"id" serial PRIMARY KEY NOT NULL,
	"guild_id" integer NOT NULL,
	"author_id" integer NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"view_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "guilds_recruitment_views" (
	"id" serial PRIMARY KEY NOT NULL,
	"post_id" integer NOT NULL,
	"viewer_key" text NOT NULL,
	"counted_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "guilds" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"name_key" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"owner_id" integer NOT NULL,
	"max_members" integer DEFAULT 30 NOT NULL,
	"countdown_seconds" integer DEFAULT 5 NOT NULL,
	"end_countdown_seconds" integer DEFAULT 60 NOT NULL,
	"problems" text DEFAULT '[]' NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"deleted_by" integer
);
--> statement-breakpoint
ALTER TABLE "guilds_activity" ADD CONSTRAINT "guilds_activity_guild_id_guilds_id_fk" FOREIGN KEY ("guild_id") REFERENCES "public"."guilds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds_activity" ADD CONSTRAINT "guilds_activity_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds_activity" ADD CONSTRAINT "guilds_activity_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds_applications" ADD CONSTRAINT "guilds_applications_guild_id_guilds_id_fk" FOREIGN KEY ("guild_id") REFERENCES "public"."guilds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds_applications" ADD CONSTRAINT "guilds_applications_post_id_guilds_recruitment_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."guilds_recruitment_posts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds_applications" ADD CONSTRAINT "guilds_applications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds_applications" ADD CONSTRAINT "guilds_applications_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds_board_comments" ADD CONSTRAINT "guilds_board_comments_post_id_guilds_board_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."guilds_board_posts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds_board_comments" ADD CONSTRAINT "guilds_board_comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds_board_comments" ADD CONSTRAINT "guilds_board_comments_deleted_by_users_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds_board_posts" ADD CONSTRAINT "guilds_board_posts_guild_id_guilds_id_fk" FOREIGN KEY ("guild_id") REFERENCES "public"."guilds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds_board_posts" ADD CONSTRAINT "guilds_board_posts_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds_board_posts" ADD CONSTRAINT "guilds_board_posts_deleted_by_users_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds_invitations" ADD CONSTRAINT "guilds_invitations_guild_id_guilds_id_fk" FOREIGN KEY ("guild_id") REFERENCES "public"."guilds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds_invitations" ADD CONSTRAINT "guilds_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds_members" ADD CONSTRAINT "guilds_members_guild_id_guilds_id_fk" FOREIGN KEY ("guild_id") REFERENCES "public"."guilds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds_members" ADD CONSTRAINT "guilds_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds_messages" ADD CONSTRAINT "guilds_messages_guild_id_guilds_id_fk" FOREIGN KEY ("guild_id") REFERENCES "public"."guilds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds_messages" ADD CONSTRAINT "guilds_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds_recruitment_posts" ADD CONSTRAINT "guilds_recruitment_posts_guild_id_guilds_id_fk" FOREIGN KEY ("guild_id") REFERENCES "public"."guilds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds_recruitment_posts" ADD CONSTRAINT "guilds_recruitment_posts_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds_recruitment_views" ADD CONSTRAINT "guilds_recruitment_views_post_id_guilds_recruitment_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."guilds_recruitment_posts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds" ADD CONSTRAINT "guilds_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds" ADD CONSTRAINT "guilds_deleted_by_users_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "guilds_activity_guild_idx" ON "guilds_activity" USING btree ("guild_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "guilds_applications_pending_unique" ON "guilds_applications" USING btree ("guild_id","user_id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "guilds_applications_guild_idx" ON "guilds_applications" USING btree ("guild_id","created_at");--> statement-breakpoint
CREATE INDEX "guilds_applications_post_idx" ON "guilds_applications" USING btree ("post_id");--> statement-breakpoint
CREATE INDEX "guilds_board_comments_post_idx" ON "guilds_board_comments" USING btree ("post_id","created_at");--> statement-breakpoint
CREATE INDEX "guilds_board_posts_guild_idx" ON "guilds_board_posts" USING btree ("guild_id","deleted_at","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "guilds_invitations_pending_unique" ON "guilds_invitations" USING btree ("guild_id","email") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "guilds_invitations_email_idx" ON "guilds_invitations" USING btree ("email","status");--> statement-breakpoint
CREATE UNIQUE INDEX "guilds_members_user_live_unique" ON "guilds_members" USING btree ("user_id") WHERE left_at IS NULL;--> statement-breakpoint
CREATE INDEX "guilds_members_guild_idx" ON "guilds_members" USING btree ("guild_id","left_at");--> statement-breakpoint
CREATE INDEX "guilds_messages_guild_idx" ON "guilds_messages" USING btree ("guild_id","id");--> statement-breakpoint
CREATE INDEX "guilds_recruitment_posts_live_idx" ON "guilds_recruitment_posts" USING btree ("deleted_at","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "guilds_recruitment_views_post_viewer_unique" ON "guilds_recruitment_views" USING btree ("post_id","viewer_key");--> statement-breakpoint
CREATE UNIQUE INDEX "guilds_name_key_live_unique" ON "guilds" USING btree ("name_key") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "guilds_live_created_idx" ON "guilds" USING btree ("deleted_at","created_at");