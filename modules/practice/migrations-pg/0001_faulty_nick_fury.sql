CREATE TABLE "practice_goals" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"wpm" integer NOT NULL,
	"accuracy" double precision NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "practice_goals" ADD CONSTRAINT "practice_goals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;