import { createRoot } from "react-dom/client";

createRoot(document.getElementById("root")!).render(<p>타자마당</p>);
