CREATE TABLE "rooms_rooms" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"max_users" integer DEFAULT 20 NOT NULL,
	"theme" text NOT NULL,
	"language" text DEFAULT 'ko' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rooms_sentences" (
	"id" serial PRIMARY KEY NOT NULL,
	"theme" text NOT NULL,
	"text" text NOT NULL,
	"source" text DEFAULT '' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "rooms_rooms_name_unique" ON "rooms_rooms" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "rooms_sentences_theme_text_unique" ON "rooms_sentences" USING btree ("theme","text");