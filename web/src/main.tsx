import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { installValidationMessages } from "../../domain/contracts/validation-messages";
import { App } from "./app/app";
import "./index.css";

installValidationMessages();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
