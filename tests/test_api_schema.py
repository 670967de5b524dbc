"""The API's OpenAPI schema validates (checked here by its structure: the suite has no OpenAPI
validator, and one is not worth a dependency) and names every address the API answers; its docs
page is our own HTML, read from the schema, loading nothing from elsewhere (the site's
Content-Security-Policy, a server without the internet)."""

import re

from django.urls import URLPattern

from tests.conftest import CLUB_SLUG
from web.api import site

METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def refs(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield value
            else:
                yield from refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from refs(value)


def test_the_schema_is_openapi_3_1_with_every_address(client, club):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    schema = response.json()
    assert schema["openapi"] == "3.1.0" and schema["info"]["title"] and schema["info"]["version"]
    routes = {
        "/api/" + re.sub(r"<(\w+)>", r"{\1}", str(p.pattern))
        for p in site.URLS[0]
        if isinstance(p, URLPattern) and p.name not in ("openapi-json", "api-root")
    }
    assert set(schema["paths"]) == routes
    assert set(schema["paths"]["/api/{club}/matchdays/"]) == {"get", "post"}
    assert len(routes) == 8


def test_every_operation_is_whole_and_every_reference_resolves(client, club):
    schema = client.get("/api/openapi.json").json()
    operation_ids = []
    for path, methods in schema["paths"].items():
        assert path.startswith("/api/")
        for method, operation in methods.items():
            assert method in METHODS
            operation_ids.append(operation["operationId"])
            assert operation["summary"] and operation["responses"]
            assert all(re.fullmatch(r"[1-5][0-9][0-9]", code) for code in operation["responses"])
            named = {p["name"] for p in operation.get("parameters", []) if p["in"] == "path"}
            assert named == set(re.findall(r"{(\w+)}", path)), path
            for parameter in operation.get("parameters", []):
                assert parameter["in"] in ("path", "query", "header") and "schema" in parameter
                assert parameter["in"] != "path" or parameter["required"] is True
    assert len(operation_ids) == len(set(operation_ids))
    components = schema["components"]["schemas"]
    for ref in refs(schema):
        assert ref.startswith("#/components/schemas/") and ref.rsplit("/", 1)[1] in components, ref


def test_the_write_documents_its_body_token_key_and_refusals(client, club):
    schema = client.get("/api/openapi.json").json()
    post = schema["paths"]["/api/{club}/matchdays/"]["post"]
    body = post["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["required"]) == {"date", "game", "lines"} and body["additionalProperties"] is False
    assert body["properties"]["lines"]["type"] == "array"
    assert post["security"] == [{"SecretaryToken": []}]
    assert schema["components"]["securitySchemes"]["SecretaryToken"] == {"type": "http", "scheme": "bearer"}
    assert {"201", "400", "401", "403", "404", "409", "422", "429"} <= set(post["responses"])
    assert any(p["name"] == "Idempotency-Key" and p["in"] == "header" for p in post["parameters"])
    standings = schema["paths"]["/api/{club}/standings/"]["get"]
    assert {p["name"] for p in standings["parameters"]} == {"club", "as_at", "all"}
    assert "security" not in standings


def test_the_docs_page_lists_every_address_and_loads_nothing_from_elsewhere(client, club):
    response = client.get("/api/docs")
    assert response.status_code == 200
    html = response.content.decode()
    for path, methods in client.get("/api/openapi.json").json()["paths"].items():
        for method in methods:
            assert f"{method.upper()} {path}" in html
    assert "<script" not in html and "style=" not in html
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources and all(s.startswith(("/", "#")) for s in sources), sources
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy


def test_the_apis_own_addresses_answer_in_json(client, club):
    assert client.get("/api/").json() == {"docs": "/api/docs", "schema": "/api/openapi.json", "clubs": "/api/clubs/"}
    for address in (f"/api/{CLUB_SLUG}/", f"/api/{CLUB_SLUG}/standings", "/api/x/y/z/"):
        response = client.get(address)
        assert response.status_code == 404 and "/api/docs" in response.json()["detail"]
