CREATE TABLE "practice_days" (
	"user_id" integer NOT NULL,
	"day" text NOT NULL,
	"practice_ms" bigint NOT NULL,
	"paid_ms" bigint NOT NULL,
	"experience" integer NOT NULL,
	"results" integer NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "practice_days_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
CREATE TABLE "practice_jamo_days" (
	"user_id" integer NOT NULL,
	"layout" text NOT NULL,
	"day" text NOT NULL,
	"unit" text NOT NULL,
	"hits" integer NOT NULL,
	"errors" integer NOT NULL,
	"time_ms" bigint NOT NULL,
	"timed" integer NOT NULL,
	CONSTRAINT "practice_jamo_days_user_id_layout_day_unit_pk" PRIMARY KEY("user_id","layout","day","unit")
);
--> statement-breakpoint
CREATE TABLE "practice_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"client_id" text NOT NULL,
	"kind" text NOT NULL,
	"text_id" text NOT NULL,
	"layout" text NOT NULL,
	"wpm" integer NOT NULL,
	"accuracy" double precision NOT NULL,
	"keystrokes" integer NOT NULL,
	"error_count" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"day" text NOT NULL,
	"merged" boolean NOT NULL,
	"experience" integer NOT NULL,
	"paid_at" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "practice_days" ADD CONSTRAINT "practice_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "practice_jamo_days" ADD CONSTRAINT "practice_jamo_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "practice_results" ADD CONSTRAINT "practice_results_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "practice_days_recent_idx" ON "practice_days" USING btree ("user_id","day" desc);--> statement-breakpoint
CREATE UNIQUE INDEX "practice_results_client_idx" ON "practice_results" USING btree ("user_id","client_id");--> statement-breakpoint
CREATE INDEX "practice_results_day_idx" ON "practice_results" USING btree ("user_id","day");