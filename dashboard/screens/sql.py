"""Sql: see the page's module for details."""

from __future__ import annotations

import streamlit as st

st.title("Sql")
st.info("This page is being prepared.")
